import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import {
  LOAD_TIMEOUT_MS,
  type NowNextSnapshot,
  PROGRESS_TICK_MS,
  RETRY_FIRST_MS,
  selectProgrammes
} from "../../../src/machines/streams/nowNextMachine.ts"
import { MAX_REFRESH_MS, MIN_REFRESH_MS } from "../../../src/machines/streams/nowNextProgrammes.ts"
import { at, guide, guideLoader, MINUTE, ok, programme, refused, startNowNext, T0 } from "./nowNextFixtures.ts"

const nowTitle = (snapshot: NowNextSnapshot, streamId: number) => selectProgrammes(snapshot, streamId)?.now?.title ?? null
const nextTitle = (snapshot: NowNextSnapshot, streamId: number) => selectProgrammes(snapshot, streamId)?.next?.title ?? null
const percent = (snapshot: NowNextSnapshot, streamId: number) => selectProgrammes(snapshot, streamId)?.now?.percent ?? null

describe("nowNextMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("shows what airs now, how far through it is, and what comes next at what time", async () => {
    const actor = await startNowNext(guideLoader(ok(guide)))
    expect(selectProgrammes(actor.getSnapshot(), 3)).toEqual({
      now: { title: "Evening News", subtitle: "Headlines", start: at(-10), end: at(20), percent: 33 },
      next: { title: "Match of the Day", subtitle: "", start: at(20), end: at(80) }
    })
    expect(percent(actor.getSnapshot(), 4)).toBe(62)
    expect(nextTitle(actor.getSnapshot(), 4)).toBe("Weather")
  })

  it("gives a stream without a guide nothing, and keeps nothing of streams that are not shown", async () => {
    const actor = await startNowNext(
      guideLoader(ok([...guide, { streamId: 5, now: null, next: null }, { streamId: 9, now: programme(0, 30, "Elsewhere"), next: null }])),
      [3, 4, 5, 6]
    )
    expect(selectProgrammes(actor.getSnapshot(), 5)).toBeNull()
    expect(selectProgrammes(actor.getSnapshot(), 6)).toBeNull()
    expect(actor.getSnapshot().context.guide.map((entry) => entry.streamId)).toEqual([3, 4, 5])
    expect(selectProgrammes(undefined, 3)).toBeNull()
  })

  it("shows only the next programme in a gap, and only the current one when nothing is known after it", async () => {
    const actor = await startNowNext(
      guideLoader(
        ok([
          { streamId: 3, now: null, next: programme(50, 80, "Late Film") },
          { streamId: 4, now: programme(-5, 55, "Concert"), next: null }
        ])
      )
    )
    expect(selectProgrammes(actor.getSnapshot(), 3)).toMatchObject({ now: null, next: { title: "Late Film" } })
    expect(selectProgrammes(actor.getSnapshot(), 4)).toMatchObject({ now: { title: "Concert", percent: 8 }, next: null })
  })

  it("moves the progress on every 30 seconds as time passes", async () => {
    const actor = await startNowNext(guideLoader(ok(guide)))
    expect(percent(actor.getSnapshot(), 3)).toBe(33)
    await vi.advanceTimersByTimeAsync(PROGRESS_TICK_MS - 1)
    expect(percent(actor.getSnapshot(), 3)).toBe(33)
    await vi.advanceTimersByTimeAsync(1)
    expect(percent(actor.getSnapshot(), 3)).toBe(35)
    await vi.advanceTimersByTimeAsync(5 * MINUTE)
    expect(percent(actor.getSnapshot(), 3)).toBe(51)
  })

  it("loads again when the earliest shown programme ends, not before, then at the next end", async () => {
    const later = [
      { streamId: 3, now: programme(-10, 20, "Evening News"), next: programme(20, 80, "Match of the Day") },
      { streamId: 4, now: programme(15, 45, "Weather"), next: programme(45, 60, "Late News") }
    ]
    const loader = guideLoader(ok(guide), ok(later))
    const actor = await startNowNext(loader)
    await vi.advanceTimersByTimeAsync(15 * MINUTE - 1)
    expect(loader.callTimes()).toEqual([0])
    await vi.advanceTimersByTimeAsync(1)
    expect(loader.callTimes()).toEqual([0, 15])
    expect(nowTitle(actor.getSnapshot(), 4)).toBe("Weather")
    expect(nextTitle(actor.getSnapshot(), 4)).toBe("Late News")
    expect(percent(actor.getSnapshot(), 4)).toBe(0)
    await vi.advanceTimersByTimeAsync(5 * MINUTE)
    expect(loader.callTimes()).toEqual([0, 15, 20])
  })

  it("counts the next programme as on now from its start, while the reload is still on its way", async () => {
    const actor = await startNowNext(guideLoader(ok(guide), "hang"))
    await vi.advanceTimersByTimeAsync(15 * MINUTE)
    expect(nowTitle(actor.getSnapshot(), 4)).toBe("Weather")
    expect(nextTitle(actor.getSnapshot(), 4)).toBeNull()
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
  })

  it("shows nothing after a failed load and tries again later, pausing longer after each failure", async () => {
    const loader = guideLoader(refused, unreachable("network", "offline"), SESSION_ENDED, ok(guide))
    const actor = await startNowNext(loader)
    expect(selectProgrammes(actor.getSnapshot(), 3)).toBeNull()
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS)
    expect(loader.calls).toHaveLength(2)
    expect(selectProgrammes(actor.getSnapshot(), 3)).toBeNull()
    await vi.advanceTimersByTimeAsync(2 * RETRY_FIRST_MS - 1)
    expect(loader.calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    await vi.advanceTimersByTimeAsync(4 * RETRY_FIRST_MS)
    expect(loader.callTimes()).toEqual([0, 0.5, 1.5, 3.5])
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
  })

  it("gives up on a load that hangs after 10 seconds and tries again like after a failure", async () => {
    const loader = guideLoader("hang", ok(guide))
    const actor = await startNowNext(loader)
    await vi.advanceTimersByTimeAsync(LOAD_TIMEOUT_MS)
    expect(actor.getSnapshot().value).toBe("waiting")
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS)
    expect(loader.calls.map((time) => time - T0)).toEqual([0, LOAD_TIMEOUT_MS + RETRY_FIRST_MS])
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
  })

  it("keeps what is still airing when a reload fails, and drops each programme once it ends", async () => {
    const loader = guideLoader(ok(guide), refused)
    const actor = await startNowNext(loader)
    await vi.advanceTimersByTimeAsync(15 * MINUTE)
    expect(loader.calls).toHaveLength(2)
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
    expect(nowTitle(actor.getSnapshot(), 4)).toBe("Weather")
    await vi.advanceTimersByTimeAsync(30 * MINUTE)
    expect(selectProgrammes(actor.getSnapshot(), 4)).toBeNull()
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Match of the Day")
  })

  it("asks again shortly, not at once, when the answer is already past its end", async () => {
    const stale = [{ streamId: 3, now: programme(-40, -1, "Ended"), next: programme(-1, 30, "Started") }]
    const loader = guideLoader(ok(stale), ok(guide))
    const actor = await startNowNext(loader)
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Started")
    await vi.advanceTimersByTimeAsync(MIN_REFRESH_MS - 1)
    expect(loader.calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(loader.calls).toHaveLength(2)
  })

  it("moves a shown programme on the moment it ends, even while reloads keep answering what was already past", async () => {
    // stream 4's programme ended a second ago on the device's clock; the server keeps answering it
    const stale = [
      { streamId: 3, now: programme(-10, 0.4, "Evening News"), next: programme(0.4, 80, "Match of the Day") },
      { streamId: 4, now: programme(-30, -1 / 60, "Cartoons"), next: programme(-1 / 60, 45, "Weather") }
    ]
    const actor = await startNowNext(guideLoader(ok(stale)))
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
    // reloads come every 15 s, ticks every 30 s: neither falls on 20:10:24
    await vi.advanceTimersByTimeAsync(24_000 - 1)
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
    await vi.advanceTimersByTimeAsync(1)
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Match of the Day")
    expect(nextTitle(actor.getSnapshot(), 3)).toBeNull()
  })

  it("moves a shown programme on the moment it ends while a reload hangs or fails", async () => {
    const guideAt = [
      { streamId: 3, now: programme(-10, 20.4, "Evening News"), next: programme(20.4, 80, "Match of the Day") },
      { streamId: 4, now: programme(-25, 15, "Cartoons"), next: programme(15, 45, "Weather") }
    ]
    const loader = guideLoader(ok(guideAt), "hang")
    const actor = await startNowNext(loader)
    // the reload at 20:25 hangs, is given up after 10 s and retried; ticks fall on whole half minutes
    await vi.advanceTimersByTimeAsync(20.4 * MINUTE - 1)
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Evening News")
    expect(loader.callTimes().length).toBeGreaterThan(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(nowTitle(actor.getSnapshot(), 3)).toBe("Match of the Day")
  })

  it("looks again every half hour when no shown stream has a guide", async () => {
    const loader = guideLoader(ok([]))
    await startNowNext(loader)
    await vi.advanceTimersByTimeAsync(MAX_REFRESH_MS * 2)
    expect(loader.callTimes()).toEqual([0, 30, 60])
  })

  it("stops its clock and its call when it is stopped", async () => {
    const loader = guideLoader("hang")
    const actor = await startNowNext(loader)
    actor.stop()
    expect(vi.getTimerCount()).toBe(0)
  })
})
