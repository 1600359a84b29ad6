import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromCallback, fromPromise } from "xstate"
import { type Answer, answered } from "../../../src/domain/contract/answer.ts"
import type { PlayerChoice } from "../../../src/domain/Stream.ts"
import { nowNextMachine, selectProgrammes } from "../../../src/machines/streams/nowNextMachine.ts"
import {
  selectIsLoading,
  selectModal,
  selectNowNext,
  selectStreams,
  streamSelectionMachine
} from "../../../src/machines/streams/streamSelectionMachine.ts"
import { streams } from "../../support/machineFixtures.ts"
import { fakeNowNext, guide, ok, refused, T0 } from "./nowNextFixtures.ts"

/** The grid with its streams answered when the test says so. */
const start = async (nowNext: typeof nowNextMachine) => {
  let answerStreams: (answer: Answer<"streams">) => void = () => {}
  const navigate = vi.fn()
  const actor = createActor(
    streamSelectionMachine.provide({
      actors: {
        readPlayerChoice: fromPromise(async (): Promise<PlayerChoice> => 1),
        loadStreams: fromPromise(() => new Promise<Answer<"streams">>((resolve) => (answerStreams = resolve))),
        nowNext
      },
      actions: { navigate }
    })
  ).start()
  // the stored player choice is read first, then the streams are asked for
  await vi.advanceTimersByTimeAsync(0)
  return { actor, navigate, answerStreams: (answer: Answer<"streams">) => answerStreams(answer) }
}

describe("streamSelectionMachine: now and next on the grid", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("asks what airs only once the streams are in, for the streams on the grid", async () => {
    const { loader, logic } = fakeNowNext(ok(guide))
    const { actor, answerStreams } = await start(logic)
    expect(selectIsLoading(actor.getSnapshot())).toBe(true)
    expect(loader.calls).toHaveLength(0)
    expect(selectNowNext(actor.getSnapshot())).toBeUndefined()

    answerStreams(answered({ success: true, data: streams }))
    await vi.advanceTimersByTimeAsync(0)
    expect(loader.calls).toHaveLength(1)
    const nowNext = selectNowNext(actor.getSnapshot())
    expect(nowNext?.getSnapshot().context.streamIds).toEqual([1, 2, 3, 4])
    expect(selectProgrammes(nowNext?.getSnapshot(), 3)?.now?.title).toBe("Evening News")
    expect(selectProgrammes(nowNext?.getSnapshot(), 1)).toBeNull()
  })

  it("shows the grid while now/next is still loading, and whatever becomes of it", async () => {
    const { actor, answerStreams, navigate } = await start(fakeNowNext("hang").logic)
    answerStreams(answered({ success: true, data: streams }))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectStreams(actor.getSnapshot())).toHaveLength(4)
    actor.send({ type: "stream.choose", index: 2 })
    expect(navigate).toHaveBeenCalledTimes(1)
  })

  it("keeps working when loading now/next fails, and when now/next itself breaks", async () => {
    for (const nowNext of [
      fakeNowNext(refused).logic,
      nowNextMachine.provide({
        actors: {
          loadNowNext: fromPromise(async () => ok(guide)),
          clock: fromCallback(() => {
            throw new Error("no clock")
          })
        }
      })
    ]) {
      const { actor, answerStreams, navigate } = await start(nowNext)
      answerStreams(answered({ success: true, data: streams }))
      await vi.advanceTimersByTimeAsync(60_000)
      expect(actor.getSnapshot().status).toBe("active")
      actor.send({ type: "stream.choose", index: 0 })
      expect(selectModal(actor.getSnapshot())).toBe("maintenance")
      actor.send({ type: "modal.close" })
      actor.send({ type: "stream.choose", index: 3 })
      expect(navigate).toHaveBeenCalledTimes(1)
      actor.stop()
    }
  })
})
