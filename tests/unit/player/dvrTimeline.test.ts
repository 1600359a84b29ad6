import { describe, expect, it } from "vitest"
import type { MediaTiming } from "../../../src/domain/MediaProtocol.ts"
import type { EpgEntry } from "../../../src/domain/Schedule.ts"
import { dvrTimeline, momentOnScreen, nextStart, previousStart } from "../../../src/machines/player/playerDvrTimeline.ts"
import { withDefault, withoutMoment, withoutStart, withStart } from "../../../src/machines/player/playerQuery.ts"
import { momentText, spanText, wallClock } from "../../../src/ui/player/dvrFormat.ts"

const H = 3_600_000
const T0 = Date.parse("2030-03-01T20:00:00.000Z")
const entry = (from: string, to: string, title: string): EpgEntry => ({
  StartTime: `2030-03-01T${from}:00.000Z`,
  EndTime: `2030-03-01T${to}:00.000Z`,
  Title: title,
  Subtitle: ""
})
const guide = [
  entry("14:00", "15:30", "Before the window"),
  entry("15:30", "18:30", "Across its start"),
  entry("18:30", "19:15", "News"),
  entry("19:15", "21:15", "Cup Final"),
  entry("21:15", "22:00", "After the edge")
]
/** Four hours up to T0, media time 0 at its start; the playhead `behind` ms behind the edge. */
const timing = (behind: number, overrides: Partial<MediaTiming> = {}): MediaTiming => ({
  currentTime: (4 * H - behind) / 1000,
  start: 0,
  end: (4 * H) / 1000,
  live: true,
  latency: behind / 1000,
  epoch: T0 - 4 * H,
  ...overrides
})

describe("the seek bar in wall-clock time", () => {
  it("places the programmes inside the window along it, the one on screen found", () => {
    const timeline = dvrTimeline(timing(36 * 60_000), guide)
    expect(timeline?.start).toBe(T0 - 4 * H)
    expect(timeline?.end).toBe(T0)
    expect(timeline?.at).toBe(T0 - 36 * 60_000)
    expect(timeline?.behindMs).toBe(36 * 60_000)
    expect(timeline?.programmes.map((programme) => [programme.title, programme.from, programme.to, programme.startsInside])).toEqual([
      ["Across its start", 0, 62.5, false],
      ["News", 62.5, 81.25, true],
      ["Cup Final", 81.25, 100, true]
    ])
    expect(timeline?.current?.title).toBe("Cup Final")
    expect(momentOnScreen(timing(0))).toBe(T0)
  })

  it("has no timeline without dates, outside a live window, or on a window too short to seek in", () => {
    expect(dvrTimeline(timing(0, { epoch: undefined }), guide)).toBeNull()
    expect(dvrTimeline(timing(0, { live: false }), guide)).toBeNull()
    expect(dvrTimeline(timing(0, { start: 4 * 3600 - 30 }), guide)).toBeNull()
    expect(dvrTimeline(null, guide)).toBeNull()
    expect(momentOnScreen(timing(0, { epoch: undefined }))).toBeNull()
  })

  it("goes back to the start of the programme on screen, then the one before; on to the next, or to live", () => {
    const inFinal = dvrTimeline(timing(36 * 60_000), guide)
    expect(previousStart(inFinal)).toBe(Date.parse("2030-03-01T19:15:00.000Z"))
    expect(nextStart(inFinal)).toBeNull()
    const atFinalStart = dvrTimeline(timing(45 * 60_000 - 2000), guide)
    expect(previousStart(atFinalStart)).toBe(Date.parse("2030-03-01T18:30:00.000Z"))
    const inNews = dvrTimeline(timing(60 * 60_000), guide)
    expect(nextStart(inNews)).toBe(Date.parse("2030-03-01T19:15:00.000Z"))
    // the first programme began before the window: its start cannot be played
    expect(previousStart(dvrTimeline(timing(3 * H), guide))).toBeNull()
  })

  it("writes the moment on screen en-GB, 24 hours, and how far behind live it is", () => {
    expect(wallClock(Date.parse("2030-03-01T20:14:00"))).toBe("20:14")
    expect(momentText(Date.parse("2030-03-01T20:14:00"), 36 * 60_000)).toBe("20:14 · 36 min behind live")
    expect(momentText(Date.parse("2030-03-01T08:05:00"), null)).toBe("08:05")
    expect([spanText(40_000), spanText(65 * 60_000), spanText(-5)]).toEqual(["40 s", "1 h 05 min", "0 s"])
  })
})

describe("the player page's query", () => {
  it("drops the start it was opened with once another stream is chosen, keeping everything else", () => {
    expect(withDefault(withoutStart("?stream=4&from=2030-03-01T19:15:00.000Z&ui=8&default=3"), 1)).toBe("?ui=8&default=1")
    // a `from` that names no moment is an embedder's own
    expect(withoutStart("?stream=4&from=grid")).toBe("?from=grid")
    expect(withoutMoment("?from=grid&default=1")).toBe("?from=grid&default=1")
    expect(withoutMoment("?default=1&from=2030-03-01T19:15:00Z")).toBe("?default=1")
    expect(withStart("?default=2&ui=8", 3, T0)).toBe("?default=2&ui=8&stream=3&from=2030-03-01T20%3A00%3A00.000Z")
  })
})
