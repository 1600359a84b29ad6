import { describe, expect, it } from "vitest"
import { REBUFFERING_ALERT, streamHealthFigures } from "../../../src/domain/Connection.ts"
import { createQoeTracker, MAX_WATCH_GAP_MS } from "../../../src/server/connections/streamHealth.ts"

const at = "2026-11-25T12:00:00.000Z"
const record = (session: string, event: string, clientTime: number, extra: Record<string, unknown> = {}) => ({
  session_id: session,
  event,
  client_time: clientTime,
  ids: { media_id: "7" },
  ...extra
})

describe("quality samples from health beacons", () => {
  it("takes each source's reported time to first picture", () => {
    const samples = createQoeTracker()([record("a", "firstframe", 5, { first_frame_ms: 900 }), record("a", "firstframe", 6)], at)
    expect(samples).toEqual([{ stream_id: "7", kind: "ttff", value: 900, at }])
  })

  it("counts a stall from waiting to playing once the source has played, across beacons, and not the wait for the first picture", () => {
    const samples = createQoeTracker()
    expect(samples([record("a", "waiting", 1), record("a", "playing", 400)], at)).toEqual([])
    expect(samples([record("a", "waiting", 1000), record("a", "waiting", 1500)], at)).toEqual([
      { stream_id: "7", kind: "watch", value: 600, at }
    ])
    expect(samples([record("a", "playing", 3500)], at)).toEqual([{ stream_id: "7", kind: "stall", value: 2500, at }])
  })

  it("forgets a stall a pause or an error ended, and counts the error", () => {
    const samples = createQoeTracker()
    samples([record("a", "playing", 0), record("b", "playing", 0)], at)
    expect(samples([record("a", "waiting", 10), record("a", "pause", 20), record("a", "playing", 5000)], at)).toEqual([
      { stream_id: "7", kind: "watch", value: 10, at }
    ])
    expect(samples([record("b", "waiting", 10), record("b", "error", 20), record("b", "playing", 5000)], at)).toEqual([
      { stream_id: "7", kind: "error", value: 1, at },
      { stream_id: "7", kind: "watch", value: 10, at }
    ])
  })

  it("reads records in the players' own order, and leaves out what names no stream of ours", () => {
    const samples = createQoeTracker()
    expect(samples([record("a", "playing", 300), record("a", "waiting", 100), record("a", "playing", 50)], at)).toEqual([
      { stream_id: "7", kind: "stall", value: 200, at },
      { stream_id: "7", kind: "watch", value: 50, at }
    ])
    expect(
      samples(
        [
          { ...record("c", "error", 1), ids: { media_id: "../x" } },
          { session_id: "d", event: "error", client_time: 1 }
        ],
        at
      )
    ).toEqual([])
  })

  it("remembers only so many players", () => {
    const samples = createQoeTracker(2)
    samples([record("a", "playing", 0), record("a", "waiting", 1)], at)
    samples([record("b", "playing", 0), record("b", "waiting", 2), record("c", "playing", 0), record("c", "waiting", 3)], at)
    expect(samples([record("a", "playing", 100)], at)).toEqual([])
    expect(samples([record("c", "playing", 100)], at)).toEqual([{ stream_id: "7", kind: "stall", value: 97, at }])
  })

  it("counts the time players report playing, through their time updates and across beacons, and not paused, stalled or unreported time", () => {
    const samples = createQoeTracker()
    // a 20 s session with one 28 ms stall: watching time is what was played, not a ping's minute
    expect(
      samples([record("a", "waiting", 0), record("a", "playing", 500), record("a", "timeupdate", 5500), record("a", "waiting", 7000)], at)
    ).toEqual([{ stream_id: "7", kind: "watch", value: 6500, at }])
    expect(samples([record("a", "playing", 7028), record("a", "timeupdate", 12_028)], at)).toEqual([
      { stream_id: "7", kind: "stall", value: 28, at },
      { stream_id: "7", kind: "watch", value: 5000, at }
    ])
    expect(samples([record("a", "timeupdate", 17_028), record("a", "pause", 20_500), record("a", "timeupdate", 30_000)], at)).toEqual([
      { stream_id: "7", kind: "watch", value: 8472, at }
    ])
    // two players of one stream make one sample; a long silence counts only so far
    expect(
      samples(
        [record("b", "playing", 0), record("b", "timeupdate", 5000), record("c", "playing", 0), record("c", "timeupdate", 600_000)],
        at
      )
    ).toEqual([{ stream_id: "7", kind: "watch", value: 5000 + MAX_WATCH_GAP_MS, at }])
  })
})

describe("a stream's quality as staff see it", () => {
  it("is in seconds and percent, flagged with errors or much rebuffering", () => {
    const base = { streamId: "7", stream: "Demo", viewers: 3, errors: 0 }
    expect(streamHealthFigures({ ...base, medianFirstFrameMs: 1234, rebufferingRatio: 0.01 })).toEqual({
      firstFrame: "1.2 s",
      rebuffering: "1.0 %",
      needsAttention: false
    })
    expect(streamHealthFigures({ ...base, medianFirstFrameMs: null, rebufferingRatio: null })).toEqual({
      firstFrame: "---",
      rebuffering: "---",
      needsAttention: false
    })
    expect(streamHealthFigures({ ...base, medianFirstFrameMs: 800, rebufferingRatio: REBUFFERING_ALERT + 0.001 }).needsAttention).toBe(true)
    expect(streamHealthFigures({ ...base, medianFirstFrameMs: 800, rebufferingRatio: 0, errors: 1 }).needsAttention).toBe(true)
  })
})
