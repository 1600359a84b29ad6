import { M3U8Parser } from "hls.js"
import { describe, expect, it } from "vitest"
import { GRANT, type RelayPlaylist, withViewerGrant } from "../../../src/server/feeds/relayPlaylist.ts"
import { WindowIndex } from "../../../src/server/feeds/timeshiftIndex.ts"
import { windowedPlaylist } from "../../../src/server/feeds/timeshiftPlaylist.ts"

const T0 = Date.UTC(2026, 5, 1, 18, 0, 0)
const uri = (name: string) => `/live/pull1/m/${name}?grant=${GRANT}`

/** The live playlist as the packager writes it: segments `first`…`first + 2` with parts, one being made. */
const live = (first: number, { discontinuity = false } = {}): RelayPlaylist => {
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:9",
    "#EXT-X-TARGETDURATION:2",
    "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.200",
    "#EXT-X-PART-INF:PART-TARGET=0.400",
    `#EXT-X-MEDIA-SEQUENCE:${first}`,
    "#EXT-X-DISCONTINUITY-SEQUENCE:0",
    ...(discontinuity ? ["#EXT-X-DISCONTINUITY"] : []),
    `#EXT-X-MAP:URI="${uri("r2-init1.mp4")}"`
  ]
  for (let sequence = first; sequence < first + 3; sequence += 1) {
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(T0 + (sequence - 100) * 2000).toISOString()}`)
    if (sequence === first + 2) lines.push(`#EXT-X-PART:DURATION=0.400,URI="${uri(`r2-${sequence}.0.m4s`)}",INDEPENDENT=YES`)
    lines.push("#EXTINF:2.000,", uri(`r2-${sequence}.m4s`))
  }
  lines.push(`#EXT-X-PART:DURATION=0.400,URI="${uri(`r2-${first + 3}.0.m4s`)}",INDEPENDENT=YES`)
  lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(`r2-${first + 3}.1.m4s`)}"`)
  return {
    pieces: `${lines.join("\n")}\n`.split(GRANT),
    uris: new Map(),
    multivariant: false,
    targetDuration: 2,
    partTarget: 0.4,
    canBlockReload: true,
    endList: false,
    firstSequence: first,
    edge: { sequence: first + 3, parts: 1 },
    discontinuitySequence: 0
  }
}

/** A window of two-second segments `from`…`to` (exclusive), the run changing at `runFrom`. */
const windowOf = (from: number, to: number, runFrom = to): WindowIndex => {
  const index = new WindowIndex()
  for (let sequence = from; sequence < to; sequence += 1) {
    const run = sequence < runFrom ? "r1" : "r2"
    index.append({
      sequence,
      duration: 2,
      programDateTime: T0 + (sequence - 100) * 2000,
      discontinuity: sequence === runFrom,
      name: `${run}-${sequence}.m4s`,
      map: `${run}-init1.mp4`
    })
  }
  return index
}

/** The playlist as hls.js reads it. */
const parsed = (playlist: string) =>
  M3U8Parser.parseLevelPlaylist(playlist, "https://tv.example/live/pull1/index.m3u8", 0, "main" as never, 0, null)

const text = (pieces: Array<string> | undefined) => withViewerGrant({ pieces: pieces ?? [] } as unknown as RelayPlaylist, "G")
const segmentUris = (playlist: string) => playlist.split("\n").filter((line) => line.startsWith("/live/"))
const header = (playlist: string, tag: string) => new RegExp(`^${tag}:(.*)$`, "m").exec(playlist)?.[1]

describe("the TV player's playlist with its time-shift window", () => {
  it("lists the window's segments before the live ones, numbered from the window's first, offering delta updates", () => {
    const full = text(windowedPlaylist(live(200), windowOf(100, 203), { channel: "pull1", skip: false }))
    expect(header(full, "#EXT-X-MEDIA-SEQUENCE")).toBe("100")
    expect(header(full, "#EXT-X-VERSION")).toBe("9")
    expect(header(full, "#EXT-X-SERVER-CONTROL")).toBe("CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.200,CAN-SKIP-UNTIL=12.0")
    const uris = segmentUris(full)
    expect(uris).toHaveLength(103)
    expect(uris[0]).toBe("/live/pull1/m/r1-100.m4s?grant=G")
    expect(uris.at(-1)).toBe("/live/pull1/m/r2-202.m4s?grant=G")
    // every window segment carries its program date time; the live part stays as it was (parts, hint)
    expect(full.split("\n").filter((line) => line.startsWith("#EXT-X-PROGRAM-DATE-TIME")).length).toBe(103)
    expect(full).toMatch(/#EXT-X-PRELOAD-HINT:TYPE=PART,URI="\/live\/pull1\/m\/r2-203\.1\.m4s\?grant=G"\n$/)
  })

  it("answers _HLS_skip=YES with the segments older than CAN-SKIP-UNTIL replaced by EXT-X-SKIP, numbered so a player merges it", () => {
    const window = windowOf(100, 203, 150)
    const full = text(windowedPlaylist(live(200), window, { channel: "pull1", skip: false }))
    const delta = text(windowedPlaylist(live(200), window, { channel: "pull1", skip: true }))
    // the same numbers as the whole playlist
    expect(header(delta, "#EXT-X-MEDIA-SEQUENCE")).toBe("100")
    expect(header(delta, "#EXT-X-DISCONTINUITY-SEQUENCE")).toBe(header(full, "#EXT-X-DISCONTINUITY-SEQUENCE"))
    const skipped = Number(/^#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)$/m.exec(delta)?.[1])
    // 200 s of window and 6 s live: what starts more than 12 s before the end (194 s in) is skipped
    expect(skipped).toBe(97)
    const fullUris = segmentUris(full)
    const deltaUris = segmentUris(delta)
    // a player puts the skipped segments of its copy back in front: the whole playlist again
    expect([...fullUris.slice(0, skipped), ...deltaUris]).toEqual(fullUris)
    // the first segment after the skip says which init section it needs and when it was
    const afterSkip = delta.split("#EXT-X-SKIP:SKIPPED-SEGMENTS=97\n")[1] ?? ""
    expect(afterSkip).toMatch(/^#EXT-X-MAP:URI="\/live\/pull1\/m\/r2-init1\.mp4\?grant=G"\n#EXT-X-PROGRAM-DATE-TIME:/)
    expect(delta.length).toBeLessThan(full.length / 5)

    // hls.js reads both, and fills the delta's skipped places from its copy as its playlist merge does
    const old = parsed(full)
    const update = parsed(delta)
    expect(old.canSkipUntil).toBe(12)
    expect(update.skippedSegments).toBe(97)
    expect(update.startSN).toBe(100)
    expect(update.fragments.slice(0, 97).every((fragment) => fragment === null)).toBe(true)
    const merged = update.fragments.map((fragment, i) => fragment ?? old.fragments[i + update.startSN - old.startSN])
    expect(merged.map((fragment) => [fragment?.sn, fragment?.relurl])).toEqual(
      old.fragments.map((fragment) => [fragment.sn, fragment.relurl])
    )
    // the same wall-clock time and init section for every segment the update lists, and discontinuity
    // counts one offset apart (the skipped tags), which hls.js's merge adds back
    const offset = (old.fragments.find((each) => each.sn === 197)?.cc ?? 0) - (update.fragments[97]?.cc ?? 0)
    expect(offset).toBe(1)
    for (const fragment of update.fragments.slice(97)) {
      const same = old.fragments.find((each) => each.sn === fragment?.sn)
      expect((fragment?.cc ?? 0) + offset).toBe(same?.cc)
      expect(fragment?.programDateTime).toBe(same?.programDateTime)
      expect(fragment?.initSegment?.relurl).toBe(same?.initSegment?.relurl)
    }
    expect(update.fragments.at(-1)?.sn).toBe(202)
  })

  it("marks where the feed started again, and counts discontinuities that left in the discontinuity sequence", () => {
    const window = windowOf(100, 203, 200)
    const joined = text(windowedPlaylist(live(200), window, { channel: "pull1", skip: false }))
    // the run that began at 200 follows a gap the live playlist does not know of
    expect(joined).toMatch(/\/live\/pull1\/m\/r1-199\.m4s\?grant=G\n#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="[^"]*r2-init1/)
    expect(joined.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1)
    // the live playlist that says so itself is not told twice
    const told = text(windowedPlaylist(live(200, { discontinuity: true }), window, { channel: "pull1", skip: false }))
    expect(told.match(/#EXT-X-DISCONTINUITY\n/g)).toHaveLength(1)

    const later = windowOf(100, 203, 150)
    while ((later.first ?? 0) < 151) later.shift()
    const after = text(windowedPlaylist(live(200), later, { channel: "pull1", skip: false }))
    expect(header(after, "#EXT-X-DISCONTINUITY-SEQUENCE")).toBe("1")
    expect(after).not.toMatch(/#EXT-X-DISCONTINUITY\n/)
  })

  it("leaves the live playlist as it is while the window does not reach it", () => {
    expect(windowedPlaylist(live(200), windowOf(201, 203), { channel: "pull1", skip: false })).toBeUndefined()
    expect(windowedPlaylist(live(200), windowOf(100, 150), { channel: "pull1", skip: false })).toBeUndefined()
    expect(windowedPlaylist(live(200), new WindowIndex(), { channel: "pull1", skip: false })).toBeUndefined()
  })

  it("lists a segment whose media were lost as a gap", () => {
    const window = windowOf(100, 203)
    const lost = window.at(120)
    if (lost !== undefined) lost.gap = true
    const full = text(windowedPlaylist(live(200), window, { channel: "pull1", skip: false }))
    expect(full).toMatch(/#EXT-X-GAP\n#EXTINF:2\.000,\n\/live\/pull1\/m\/r1-120\.m4s/)
  })
})
