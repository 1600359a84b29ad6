import { describe, expect, it } from "vitest"
import { livePlaylist } from "../../../src/server/origin/livePlaylist.ts"
import {
  isPartPublished,
  type LowLatencyClock,
  type LowLatencySegment,
  liveEdge,
  lowLatencyPlaylist,
  parsePartName,
  partEndsAt,
  partUri
} from "../../../src/server/origin/lowLatencyPlaylist.ts"

const fiveParts = Array.from({ length: 5 }, () => ({ duration: 0.4 }))
const loop: ReadonlyArray<LowLatencySegment> = Array.from({ length: 6 }, (_, i) => ({
  file: `seg${i}.ts`,
  duration: 2,
  parts: fiveParts
}))
const startedAt = Date.UTC(2025, 0, 1, 12, 0, 0)
const clock = (seconds: number, overrides: Partial<LowLatencyClock> = {}): LowLatencyClock => ({
  segments: loop,
  startedAt,
  now: startedAt + seconds * 1000,
  windowSize: 6,
  ...overrides
})

interface Line {
  readonly tag: string
  readonly value: string
}

const lines = (text: string): Array<Line> =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => {
      const [tag = line, value = ""] = line.startsWith("#") ? line.split(/:(.*)/s) : ["URI", line]
      return { tag, value }
    })

const tagValue = (text: string, tag: string): string | undefined => lines(text).find((line) => line.tag === tag)?.value

const partUris = (text: string): Array<string> =>
  lines(text)
    .filter((line) => line.tag === "#EXT-X-PART")
    .map((line) => /URI="([^"]+)"/.exec(line.value)?.[1] ?? "")

const hint = (text: string): string | undefined => /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(text)?.[1]

const segmentUris = (text: string): Array<string> =>
  lines(text)
    .filter((line) => line.tag === "URI")
    .map((line) => line.value)

const partOf = (uri: string): { sequence: number; part: number } => {
  const parsed = parsePartName(uri.replace(/^part\//, ""))
  if (parsed === undefined) throw new Error(`not a part URI: ${uri}`)
  return parsed
}

describe("lowLatencyPlaylist", () => {
  it("declares the low-latency server controls and part target", () => {
    const text = lowLatencyPlaylist(clock(0))
    expect(text.startsWith("#EXTM3U\n")).toBe(true)
    expect(tagValue(text, "#EXT-X-VERSION")).toBe("9")
    expect(tagValue(text, "#EXT-X-TARGETDURATION")).toBe("2")
    expect(tagValue(text, "#EXT-X-PART-INF")).toBe("PART-TARGET=0.4")
    expect(tagValue(text, "#EXT-X-SERVER-CONTROL")).toBe("CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.2,HOLD-BACK=6")
    expect(text).not.toContain("#EXT-X-ENDLIST")
  })

  it("lists the same segments, sequence numbers and date-time as the normal playlist", () => {
    for (let seconds = -5; seconds < 40; seconds += 0.3) {
      const normal = livePlaylist(clock(seconds))
      const low = lowLatencyPlaylist(clock(seconds))
      expect(segmentUris(low)).toEqual(segmentUris(normal))
      for (const tag of ["#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE", "#EXT-X-PROGRAM-DATE-TIME"]) {
        expect(tagValue(low, tag)).toBe(tagValue(normal, tag))
      }
    }
  })

  it("lists parts for the last three complete segments and the published parts of the next", () => {
    // 0.9 s into the loop after the first window: segments 0..5 are complete, 6.0 and 6.1 are out.
    const text = lowLatencyPlaylist(clock(0.9))
    expect(partUris(text)).toEqual([
      ...[3, 4, 5].flatMap((sequence) => [0, 1, 2, 3, 4].map((part) => partUri(sequence, part))),
      partUri(6, 0),
      partUri(6, 1)
    ])
    expect(hint(text)).toBe(partUri(6, 2))
    for (const line of lines(text).filter((entry) => entry.tag === "#EXT-X-PART")) {
      expect(line.value).toMatch(/^DURATION=0\.4,URI="part\/\d+\.\d\.ts",INDEPENDENT=YES$/)
    }
    // every complete segment's parts come right before its own EXTINF
    const all = lines(text)
    for (const sequence of [3, 4, 5]) {
      const at = all.findIndex((line) => line.tag === "URI" && line.value === `seg/${sequence}.ts`)
      expect(all.slice(at - 6, at).map((line) => line.tag)).toEqual([...Array(5).fill("#EXT-X-PART"), "#EXTINF"])
    }
  })

  it("publishes a part only once its end has passed and hints the next one", () => {
    for (let ms = 0; ms < 30_000; ms += 97) {
      const now = startedAt + ms
      const text = lowLatencyPlaylist(clock(ms / 1000))
      for (const uri of partUris(text)) {
        const { sequence, part } = partOf(uri)
        expect(partEndsAt(clock(0), sequence, part)).toBeLessThanOrEqual(now)
      }
      const hinted = partOf(hint(text) ?? "")
      expect(partEndsAt(clock(0), hinted.sequence, hinted.part)).toBeGreaterThan(now)
      expect(partEndsAt(clock(0), hinted.sequence, hinted.part) - now).toBeLessThanOrEqual(400)
      const last = partOf(partUris(text).at(-1) ?? "")
      // the hint is exactly the part after the newest listed one
      expect(hinted.part === 0 ? [hinted.sequence - 1, 4] : [hinted.sequence, hinted.part - 1]).toEqual([last.sequence, last.part])
    }
  })

  it("moves the edge part by part and keeps the segment in progress out of the segment list", () => {
    expect(liveEdge(clock(0))).toEqual({ sequence: 6, parts: 0 })
    expect(liveEdge(clock(0.399))).toEqual({ sequence: 6, parts: 0 })
    expect(liveEdge(clock(0.4))).toEqual({ sequence: 6, parts: 1 })
    expect(liveEdge(clock(1.999))).toEqual({ sequence: 6, parts: 4 })
    expect(liveEdge(clock(2))).toEqual({ sequence: 7, parts: 0 })
    expect(segmentUris(lowLatencyPlaylist(clock(1.999))).at(-1)).toBe("seg/5.ts")
    expect(isPartPublished(clock(0.4), 6, 0)).toBe(true)
    expect(isPartPublished(clock(0.4), 6, 1)).toBe(false)
    expect(isPartPublished(clock(0.4), 5, 4)).toBe(true)
    expect(isPartPublished(clock(100), 6, 5)).toBe(false)
  })

  it("freezes before the origin starts, like the normal playlist", () => {
    expect(lowLatencyPlaylist(clock(-30))).toBe(lowLatencyPlaylist(clock(0)))
    expect(isPartPublished(clock(-30), 6, 0)).toBe(false)
  })

  it("puts the loop's discontinuity before the first part of a loop start, even while only hinted", () => {
    // at +0 s the segment in progress (6) is the second loop's first segment
    const hinted = lowLatencyPlaylist(clock(0))
    expect(hinted.trimEnd().split("\n").slice(-2)).toEqual(["#EXT-X-DISCONTINUITY", `#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${partUri(6, 0)}"`])
    const listed = lowLatencyPlaylist(clock(0.5)).trimEnd().split("\n")
    const first = listed.indexOf(`#EXT-X-PART:DURATION=0.4,URI="${partUri(6, 0)}",INDEPENDENT=YES`)
    expect(listed[first - 1]).toBe("#EXT-X-DISCONTINUITY")
    // once complete, the same segment carries it once, before its parts and EXTINF
    const later = lowLatencyPlaylist(clock(2.5))
    expect(later.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1)
    expect(later).toContain(`#EXT-X-DISCONTINUITY\n#EXT-X-PART:DURATION=0.4,URI="${partUri(6, 0)}"`)
  })

  it("derives the part target and hold-backs from the loop's longest part", () => {
    const quarters = loop.map((segment) => ({ ...segment, parts: Array.from({ length: 4 }, () => ({ duration: 0.5 })) }))
    const text = lowLatencyPlaylist(clock(1.2, { segments: quarters }))
    expect(tagValue(text, "#EXT-X-PART-INF")).toBe("PART-TARGET=0.5")
    expect(tagValue(text, "#EXT-X-SERVER-CONTROL")).toBe("CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5,HOLD-BACK=6")
    expect(partUris(text).slice(-2)).toEqual([partUri(6, 0), partUri(6, 1)])
    expect(hint(text)).toBe(partUri(6, 2))
  })

  it("ends the last part exactly at the segment end even when part durations are rounded", () => {
    const thirds = loop.map((segment) => ({ ...segment, parts: Array.from({ length: 3 }, () => ({ duration: 0.667 })) }))
    expect(partEndsAt(clock(0, { segments: thirds }), 6, 2)).toBe(startedAt + 2000)
    expect(partEndsAt(clock(0, { segments: thirds }), 6, 1)).toBe(startedAt + 1334)
  })

  it("maps part names back to sequence and part", () => {
    expect(parsePartName("0.0.ts")).toEqual({ sequence: 0, part: 0 })
    expect(parsePartName("897658382.4.ts")).toEqual({ sequence: 897658382, part: 4 })
    for (const bad of ["1.ts", "01.0.ts", "1.01.ts", "1.-1.ts", "1.0.mp4", "a.b.ts", "99999999999999999999.0.ts"]) {
      expect(parsePartName(bad)).toBeUndefined()
    }
  })

  it("refuses a loop whose segments have no parts", () => {
    const bare = loop.map((segment) => ({ ...segment, parts: [] }))
    expect(() => lowLatencyPlaylist(clock(0, { segments: bare }))).toThrow()
  })
})
