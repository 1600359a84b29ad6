import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { reloadDecision } from "../../../src/server/origin/blockingReload.ts"
import { createLiveWaits } from "../../../src/server/origin/liveWaits.ts"
import { type LowLatencyClock, type LowLatencySegment, partEndsAt } from "../../../src/server/origin/lowLatencyPlaylist.ts"

const loop: ReadonlyArray<LowLatencySegment> = Array.from({ length: 6 }, (_, i) => ({
  file: `seg${i}.ts`,
  duration: 2,
  parts: Array.from({ length: 5 }, () => ({ duration: 0.4 }))
}))
const startedAt = Date.UTC(2025, 0, 1, 12, 0, 0)
// 0.9 s after start: segments up to 5 are complete, parts 6.0 and 6.1 are out, 6.2 is next
const clock: LowLatencyClock = { segments: loop, startedAt, now: startedAt + 900, windowSize: 6 }
const decide = (msn?: unknown, part?: unknown) => reloadDecision(clock, msn, part)

describe("reloadDecision", () => {
  it("answers at once without directives or for what is already out", () => {
    expect(decide()).toEqual({ kind: "now" })
    expect(decide("5")).toEqual({ kind: "now" })
    expect(decide("0", "3")).toEqual({ kind: "now" })
    expect(decide("6", "1")).toEqual({ kind: "now" })
    expect(decide("6", "0")).toEqual({ kind: "now" })
  })

  it("holds until the requested part is published", () => {
    expect(decide("6", "2")).toEqual({ kind: "wait", until: startedAt + 1200 })
    expect(decide("6", "4")).toEqual({ kind: "wait", until: startedAt + 2000 })
    expect(decide("7", "0")).toEqual({ kind: "wait", until: startedAt + 2400 })
    expect(decide("7", "2")).toEqual({ kind: "wait", until: startedAt + 3200 })
  })

  it("holds a whole-segment request, or a part index past the last, until the segment is complete", () => {
    expect(decide("6")).toEqual({ kind: "wait", until: startedAt + 2000 })
    expect(decide("7")).toEqual({ kind: "wait", until: startedAt + 4000 })
    expect(decide("6", "9")).toEqual({ kind: "wait", until: startedAt + 2000 })
  })

  it("refuses a media sequence more than two past the last complete segment", () => {
    expect(decide("8")).toEqual({ kind: "bad", detail: "_HLS_msn is too far in the future" })
    expect(decide("1000", "0")).toEqual({ kind: "bad", detail: "_HLS_msn is too far in the future" })
  })

  it("refuses a part further ahead than the advance part limit (3 s of parts)", () => {
    // 6.2 is 1 part ahead of the newest (6.1); 7.4 is 8 parts ahead, over the limit of 7.5
    expect(decide("7", "3").kind).toBe("wait")
    expect(decide("7", "4")).toEqual({ kind: "bad", detail: "_HLS_part is too far in the future" })
  })

  it("refuses malformed directives", () => {
    expect(decide(undefined, "1")).toEqual({ kind: "bad", detail: "_HLS_part needs _HLS_msn" })
    for (const bad of ["", "-1", "01", "1.5", "abc", ["6", "7"], "99999999999999999"]) {
      expect(decide(bad).kind).toBe("bad")
      expect(decide("6", bad).kind).toBe("bad")
    }
  })

  it("agrees with the part timeline", () => {
    expect(decide("7", "1")).toEqual({ kind: "wait", until: partEndsAt(clock, 7, 1) })
  })
})

describe("createLiveWaits", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: startedAt })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const settledWith = async (promise: Promise<boolean>) => {
    let value: boolean | undefined
    void promise.then((result) => (value = result))
    await vi.advanceTimersByTimeAsync(0)
    return () => value
  }

  it("resolves true as soon as the clock reaches the moment", async () => {
    const waits = createLiveWaits(Date.now)
    const result = await settledWith(waits.until(startedAt + 400, startedAt + 6000))
    await vi.advanceTimersByTimeAsync(399)
    expect(result()).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(result()).toBe(true)
    expect(waits.pending()).toBe(0)
    expect(await waits.until(startedAt, startedAt + 6000)).toBe(true)
  })

  it("reads the injected clock, not the timer, so a stopped clock holds the response", async () => {
    let now = startedAt
    const waits = createLiveWaits(() => now)
    const result = await settledWith(waits.until(startedAt + 400, startedAt + 6000))
    await vi.advanceTimersByTimeAsync(5000)
    expect(result()).toBeUndefined()
    now = startedAt + 400
    // after the first early wake-up it polls, so the moved clock is noticed within 20 ms
    await vi.advanceTimersByTimeAsync(20)
    expect(result()).toBe(true)
  })

  it("gives up at the deadline", async () => {
    const waits = createLiveWaits(Date.now)
    const result = await settledWith(waits.until(startedAt + 10_000, startedAt + 6000))
    await vi.advanceTimersByTimeAsync(6000)
    expect(result()).toBe(false)
  })

  it("lets a departed client drop its wait", async () => {
    const waits = createLiveWaits(Date.now)
    const controller = new AbortController()
    const result = await settledWith(waits.until(startedAt + 400, startedAt + 6000, controller.signal))
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(result()).toBe(false)
    expect(waits.pending()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it("releases every pending wait, and later ones at once, when the server closes", async () => {
    const waits = createLiveWaits(Date.now)
    const first = await settledWith(waits.until(startedAt + 400, startedAt + 6000))
    const second = await settledWith(waits.until(startedAt + 800, startedAt + 6000))
    expect(waits.pending()).toBe(2)
    waits.release()
    await vi.advanceTimersByTimeAsync(0)
    expect([first(), second()]).toEqual([false, false])
    expect(vi.getTimerCount()).toBe(0)
    expect(await waits.until(startedAt + 400, startedAt + 6000)).toBe(false)
  })
})
