import { describe, expect, it } from "vitest"
import {
  DISCONTINUITY_WRAP,
  isPublished,
  type LiveClock,
  type LiveSegment,
  livePlaylist,
  liveWindow,
  parseSegmentName,
  segmentUri,
  sequenceStartsAt
} from "../../../src/server/origin/livePlaylist.ts"

const loop: ReadonlyArray<LiveSegment> = Array.from({ length: 6 }, (_, i) => ({ file: `seg${i}.ts`, duration: 2 }))
const startedAt = Date.UTC(2025, 0, 1, 12, 0, 0)
const clock = (seconds: number, overrides: Partial<LiveClock> = {}): LiveClock => ({
  segments: loop,
  startedAt,
  now: startedAt + seconds * 1000,
  windowSize: 6,
  ...overrides
})

interface Parsed {
  readonly tags: Map<string, string>
  readonly entries: ReadonlyArray<{ uri: string; duration: number; discontinuity: boolean; dateTime?: string }>
  readonly lines: ReadonlyArray<string>
}

const parse = (text: string): Parsed => {
  const lines = text.trimEnd().split("\n")
  const tags = new Map<string, string>()
  const entries: Array<{ uri: string; duration: number; discontinuity: boolean; dateTime?: string }> = []
  let pending: { duration?: number; discontinuity: boolean; dateTime?: string } = { discontinuity: false }
  for (const line of lines) {
    if (line === "#EXT-X-DISCONTINUITY") pending.discontinuity = true
    else if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) pending.dateTime = line.slice(25)
    else if (line.startsWith("#EXTINF:")) pending.duration = Number.parseFloat(line.slice(8))
    else if (line.startsWith("#")) {
      const [name, value = ""] = line.split(/:(.*)/s)
      tags.set(name ?? line, value)
    } else {
      entries.push({
        uri: line,
        duration: pending.duration ?? Number.NaN,
        discontinuity: pending.discontinuity,
        dateTime: pending.dateTime
      })
      pending = { discontinuity: false }
    }
  }
  return { tags, entries, lines }
}

const sequenceOf = (uri: string): number => Number(/^seg\/(\d+)\.ts$/.exec(uri)?.[1])

describe("livePlaylist", () => {
  it("has the live playlist header and no end tag", () => {
    const { lines, tags } = parse(livePlaylist(clock(0)))
    expect(lines[0]).toBe("#EXTM3U")
    expect(tags.get("#EXT-X-VERSION")).toBe("3")
    expect(tags.has("#EXT-X-ENDLIST")).toBe(false)
    expect(tags.has("#EXT-X-PLAYLIST-TYPE")).toBe(false)
  })

  it("is full at the moment the origin starts and before it", () => {
    for (const seconds of [0, 0.001, 1.999, -30]) {
      const { tags, entries } = parse(livePlaylist(clock(seconds)))
      expect(tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe("0")
      expect(tags.get("#EXT-X-DISCONTINUITY-SEQUENCE")).toBe("0")
      expect(entries.map((entry) => entry.uri)).toEqual([0, 1, 2, 3, 4, 5].map(segmentUri))
      expect(entries.some((entry) => entry.discontinuity)).toBe(false)
      expect(entries[0]?.dateTime).toBe(new Date(startedAt - 12_000).toISOString())
    }
  })

  it("publishes a segment only once it has ended, and advances the media sequence with the clock", () => {
    expect(parse(livePlaylist(clock(1.999))).tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe("0")
    expect(parse(livePlaylist(clock(2))).tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe("1")
    expect(parse(livePlaylist(clock(9))).tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe("4")
    expect(parse(livePlaylist(clock(3600))).tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe("1800")
    expect(isPublished(clock(9), 9)).toBe(true)
    expect(isPublished(clock(9), 10)).toBe(false)
    expect(isPublished(clock(10), 10)).toBe(true)
  })

  it("slides a window of exactly N consecutive segments with the right program date-time", () => {
    for (let seconds = 0; seconds < 60; seconds += 0.7) {
      for (const windowSize of [3, 6, 8]) {
        const { tags, entries } = parse(livePlaylist(clock(seconds, { windowSize })))
        const first = Number(tags.get("#EXT-X-MEDIA-SEQUENCE"))
        expect(entries.map((entry) => sequenceOf(entry.uri))).toEqual(Array.from({ length: windowSize }, (_, i) => first + i))
        const firstStart = Date.parse(entries[0]?.dateTime ?? "")
        const lastEnd = firstStart + windowSize * 2000
        expect(lastEnd).toBeLessThanOrEqual(startedAt + Math.max(0, seconds) * 1000 + 1e-6)
        expect(lastEnd + 2000).toBeGreaterThan(startedAt + seconds * 1000)
        expect(entries.filter((entry) => entry.dateTime !== undefined)).toHaveLength(1)
      }
    }
  })

  it("marks a discontinuity exactly at each loop start and counts it once it has slid out", () => {
    const seen = new Map<number, number>()
    for (let seconds = 0; seconds < 80; seconds += 2) {
      const { tags, entries } = parse(livePlaylist(clock(seconds)))
      let discontinuity = Number(tags.get("#EXT-X-DISCONTINUITY-SEQUENCE"))
      for (const entry of entries) {
        const sequence = sequenceOf(entry.uri)
        expect(entry.discontinuity).toBe(sequence > 0 && sequence % 6 === 0)
        if (entry.discontinuity) discontinuity += 1
        // every segment keeps the same discontinuity number on every reload
        expect(seen.get(sequence) ?? discontinuity).toBe(discontinuity)
        seen.set(sequence, discontinuity)
        expect(discontinuity).toBe(Math.floor(sequence / 6))
      }
    }
    // window 6..11 still carries the tag on seq 6; window 7..12 has dropped it and counts it
    expect(parse(livePlaylist(clock(12))).tags.get("#EXT-X-DISCONTINUITY-SEQUENCE")).toBe("0")
    expect(parse(livePlaylist(clock(12))).entries[0]?.discontinuity).toBe(true)
    expect(parse(livePlaylist(clock(14))).tags.get("#EXT-X-DISCONTINUITY-SEQUENCE")).toBe("1")
  })

  it("restarts the discontinuity sequence after DISCONTINUITY_WRAP loops, keeping it small for hls.js", () => {
    const loopSeconds = 12
    const sequenceAt = (seconds: number) => parse(livePlaylist(clock(seconds))).tags.get("#EXT-X-DISCONTINUITY-SEQUENCE")
    // window 60000..60005 starts the 10001st loop, whose tag is still listed: 9999 loops counted
    expect(sequenceAt(DISCONTINUITY_WRAP * loopSeconds)).toBe(String(DISCONTINUITY_WRAP - 1))
    // once that tag slides out the count would reach DISCONTINUITY_WRAP, and starts over instead
    expect(sequenceAt(DISCONTINUITY_WRAP * loopSeconds + 2)).toBe("0")
    expect(Number(parse(livePlaylist(clock(0, { startedAt: 0, now: Date.now() }))).tags.get("#EXT-X-DISCONTINUITY-SEQUENCE"))).toBeLessThan(
      DISCONTINUITY_WRAP
    )
  })

  it("places every sequence on the timeline the playlist's date-time describes", () => {
    for (const seconds of [0, 5, 37.3]) {
      const live = liveWindow(clock(seconds))
      expect(sequenceStartsAt(clock(seconds), live.firstSequence)).toBe(live.firstStartsAt)
      expect(sequenceStartsAt(clock(seconds), live.endSequence)).toBe(live.firstStartsAt + 6 * 2000)
    }
  })

  it("uses the ceiling of the longest segment as target duration and keeps exact durations", () => {
    const uneven = [
      { file: "a.ts", duration: 2 },
      { file: "b.ts", duration: 3.2 },
      { file: "c.ts", duration: 1.5 }
    ]
    const { tags, entries } = parse(livePlaylist(clock(0, { segments: uneven, windowSize: 4 })))
    expect(tags.get("#EXT-X-TARGETDURATION")).toBe("4")
    expect(entries.map((entry) => entry.duration)).toEqual([2, 3.2, 1.5, 2])
    expect(parse(livePlaylist(clock(0))).tags.get("#EXT-X-TARGETDURATION")).toBe("2")
  })

  it("handles a loop that ends partway through a segment list of uneven lengths", () => {
    const uneven = [
      { file: "a.ts", duration: 2 },
      { file: "b.ts", duration: 3 }
    ]
    // preroll for 3 segments = a + b + a = 7 s; at +3 s b (seq 3, ends at +3 s) is published
    const window = liveWindow(clock(3, { segments: uneven, windowSize: 3 }))
    expect(window).toMatchObject({ firstSequence: 1, endSequence: 4, discontinuitySequence: 0 })
    expect(window.firstStartsAt).toBe(startedAt - 7000 + 2000)
  })

  it("maps segment names back to sequences", () => {
    expect(parseSegmentName("0.ts")).toBe(0)
    expect(parseSegmentName("1234.ts")).toBe(1234)
    for (const bad of ["01.ts", "-1.ts", "1.ts.bak", "x.ts", "1", "99999999999999999999.ts"]) {
      expect(parseSegmentName(bad)).toBeUndefined()
    }
  })

  it("rejects an empty loop and a bad window size", () => {
    expect(() => livePlaylist(clock(0, { segments: [] }))).toThrow()
    expect(() => livePlaylist(clock(0, { windowSize: 0 }))).toThrow()
  })
})

describe("livePlaylist with a time-shift window", () => {
  const hour = 3_600_000
  // a day after the anchor, so the window is whole
  const dvr = (seconds: number) => clock(86_400 + seconds, { dvrMs: 4 * hour })

  it("lists the whole window as a DVR range, each loop wrap with its wall-clock time", () => {
    const { tags, entries } = parse(livePlaylist(dvr(0)))
    expect(entries.length).toBeGreaterThanOrEqual(7200)
    expect(entries.length).toBeLessThanOrEqual(7201)
    expect(tags.get("#EXT-X-VERSION")).toBe("9")
    expect(tags.get("#EXT-X-SERVER-CONTROL")).toBe("CAN-SKIP-UNTIL=60.0")
    expect(tags.has("#EXT-X-ENDLIST")).toBe(false)
    const first = entries[0]
    const last = entries.at(-1)
    expect(first !== undefined && last !== undefined).toBe(true)
    // the window's first moment is on the list, and every date written is the timeline's own
    expect(Date.parse(first?.dateTime ?? "")).toBeLessThanOrEqual(dvr(0).now - 4 * hour)
    for (const entry of entries.filter((e) => e.dateTime !== undefined)) {
      expect(Date.parse(entry.dateTime ?? "")).toBe(sequenceStartsAt(dvr(0), sequenceOf(entry.uri)))
    }
    expect(entries.filter((entry) => entry.discontinuity).every((entry) => entry.dateTime !== undefined)).toBe(true)
  })

  it("answers _HLS_skip with a delta update that completes the playlist a player holds", () => {
    const before = parse(livePlaylist(dvr(0)))
    const later = dvr(7)
    const full = parse(livePlaylist(later))
    const delta = parse(livePlaylist(later, true))
    const skipped = Number(/SKIPPED-SEGMENTS=(\d+)/.exec(delta.lines.find((line) => line.startsWith("#EXT-X-SKIP:")) ?? "")?.[1])
    expect(delta.tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe(full.tags.get("#EXT-X-MEDIA-SEQUENCE"))
    expect(delta.tags.get("#EXT-X-DISCONTINUITY-SEQUENCE")).toBe(full.tags.get("#EXT-X-DISCONTINUITY-SEQUENCE"))
    // the skipped ones are the player's already, the rest are listed: together the full playlist
    const firstSequence = Number(full.tags.get("#EXT-X-MEDIA-SEQUENCE"))
    const held = before.entries.map((entry) => sequenceOf(entry.uri)).filter((sequence) => sequence >= firstSequence)
    expect(held.slice(0, skipped)).toEqual(full.entries.slice(0, skipped).map((entry) => sequenceOf(entry.uri)))
    expect(delta.entries.map((entry) => entry.uri)).toEqual(full.entries.slice(skipped).map((entry) => entry.uri))
    // what is left covers at least CAN-SKIP-UNTIL and is small
    expect(delta.entries.reduce((sum, entry) => sum + entry.duration, 0)).toBeGreaterThanOrEqual(60)
    expect(delta.entries.length).toBeLessThan(40)
    expect(delta.entries[0]?.dateTime).toBeDefined()
  })

  it("serves the window's segments and nothing older", () => {
    const live = liveWindow(dvr(0))
    expect(isPublished(dvr(0), live.firstSequence)).toBe(true)
    expect(isPublished(dvr(0), live.endSequence - 1)).toBe(true)
    expect(isPublished(dvr(0), live.firstSequence - 7)).toBe(false)
    expect(isPublished(dvr(0), live.endSequence)).toBe(false)
    // without a window, the short list is as before
    expect(parse(livePlaylist(clock(86_400))).entries.length).toBe(6)
  })

  it("lists what there is when the timeline is younger than the window", () => {
    const { entries, tags } = parse(livePlaylist(clock(60, { dvrMs: 4 * hour })))
    expect(tags.get("#EXT-X-MEDIA-SEQUENCE")).toBe("0")
    expect(entries.length).toBe(liveWindow(clock(60)).endSequence)
  })
})
