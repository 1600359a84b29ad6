import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { fromPromise } from "xstate"
import { type Answer, answered } from "../../../src/domain/contract/answer.ts"
import { selectIsReady, selectNowNext } from "../../../src/machines/player/playerSelectors.ts"
import { selectProgrammes } from "../../../src/machines/streams/nowNextMachine.ts"
import { streams } from "../../support/machineFixtures.ts"
import { startPlayer } from "../../support/playerHarness.ts"
import { fakeNowNext, guide, MINUTE, ok, refused, T0 } from "../streams/nowNextFixtures.ts"

describe("playerMachine: now and next", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("asks what airs once the list is in, for the listed streams, and shows it through the page", async () => {
    const { loader, logic } = fakeNowNext(ok(guide))
    let answerStreams: (answer: Answer<"streams">) => void = () => {}
    const loaded = fromPromise(() => new Promise<Answer<"streams">>((resolve) => (answerStreams = resolve)))
    const { actor } = await startPlayer({ nowNext: logic, loaded })
    expect(loader.calls).toHaveLength(0)
    expect(selectNowNext(actor.getSnapshot())).toBeUndefined()

    answerStreams(answered({ success: true, data: streams }))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectIsReady(actor.getSnapshot())).toBe(true)
    expect(loader.calls).toHaveLength(1)
    const nowNext = selectNowNext(actor.getSnapshot())
    expect(nowNext?.getSnapshot().context.streamIds).toEqual([1, 2, 3, 4])
    expect(selectProgrammes(nowNext?.getSnapshot(), 3)?.now?.title).toBe("Evening News")
    expect(selectProgrammes(nowNext?.getSnapshot(), 4)?.next?.title).toBe("Weather")
  })

  it("plays without waiting for now/next, which loads beside playback", async () => {
    const { loader, logic } = fakeNowNext("hang")
    const { media, attach, send } = await startPlayer({ nowNext: logic })
    expect(loader.calls).toHaveLength(1)
    await attach()
    expect(media.sent("media.load")).toEqual([{ type: "media.load", source: "/live/3/index.m3u8" }])
    send({ type: "media.playing" })
    expect(loader.calls).toHaveLength(1)
  })

  it("keeps playing and switching when now/next fails, and keeps trying it", async () => {
    const { loader, logic } = fakeNowNext(refused)
    const { actor, media, attach, send } = await startPlayer({ nowNext: logic })
    await attach()
    send({ type: "media.playing" })
    await vi.advanceTimersByTimeAsync(2 * MINUTE)
    expect(loader.calls.length).toBeGreaterThan(1)
    expect(selectProgrammes(selectNowNext(actor.getSnapshot())?.getSnapshot(), 3)).toBeNull()
    send({ type: "player.select", index: 3 })
    expect(media.sent("media.load").at(-1)).toEqual({ type: "media.load", source: "/live/4/index.m3u8" })
  })

  it("keeps the same now/next across stream switches, without asking again", async () => {
    const { loader, logic } = fakeNowNext(ok(guide))
    const { actor, attach, send } = await startPlayer({ nowNext: logic })
    await attach()
    const before = selectNowNext(actor.getSnapshot())
    send({ type: "player.select", index: 3 })
    send({ type: "media.detach" })
    expect(selectNowNext(actor.getSnapshot())).toBe(before)
    expect(loader.calls).toHaveLength(1)
  })
})
