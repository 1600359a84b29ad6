import { describe, expect, it } from "vitest"
import { Fmp4Error, Fmp4Reader, type Fragment } from "../../../src/server/feeds/fmp4.ts"
import { Packager } from "../../../src/server/feeds/packager.ts"
import { withViewerGrant } from "../../../src/server/feeds/relayPlaylist.ts"

// Boxes as ffmpeg's mp4 muxer writes them, built by hand: a video track at 90 kHz.
const box = (type: string, ...body: Array<Buffer>): Buffer => {
  const payload = Buffer.concat(body)
  const header = Buffer.alloc(8)
  header.writeUInt32BE(8 + payload.length, 0)
  header.write(type, 4, "latin1")
  return Buffer.concat([header, payload])
}
const words = (...values: Array<number>): Buffer => {
  const buffer = Buffer.alloc(4 * values.length)
  for (const [i, value] of values.entries()) buffer.writeUInt32BE(value >>> 0, 4 * i)
  return buffer
}
const TIMESCALE = 90_000
const NON_SYNC = 0x10000

const init = (): Buffer =>
  Buffer.concat([
    box("ftyp", Buffer.from("isom")),
    box(
      "moov",
      box(
        "trak",
        // version/flags, created, modified, track id
        box("tkhd", words(0, 0, 0, 1)),
        box("mdia", box("mdhd", words(0, 0, 0, TIMESCALE)), box("hdlr", words(0, 0), Buffer.from("vide")))
      ),
      // trex: version/flags, track id, description, duration, size, flags
      box("mvex", box("trex", words(0, 1, 1, 0, 0, NON_SYNC)))
    )
  ])

/** A fragment of `frames` frames of 40 ms, the first a keyframe or not. */
const fragment = (frames: number, keyframe: boolean): Buffer => {
  // trun flags: first-sample-flags (0x4), sample durations (0x100)
  const trun = box("trun", words(0x000104, frames, keyframe ? 0 : NON_SYNC, ...Array.from({ length: frames }, () => 3600)))
  return Buffer.concat([box("moof", box("traf", box("tfhd", words(0, 1)), trun)), box("mdat", Buffer.alloc(frames * 10, 1))])
}

const read = (chunks: Array<Buffer>): { inits: number; fragments: Array<Fragment> } => {
  const fragments: Array<Fragment> = []
  let inits = 0
  const reader = new Fmp4Reader({ init: () => (inits += 1), fragment: (f) => fragments.push(f) })
  const all = Buffer.concat(chunks)
  // as a pipe hands it over: in pieces that cut boxes anywhere
  for (let at = 0; at < all.length; at += 7) reader.push(all.subarray(at, at + 7))
  return { inits, fragments }
}

describe("reading ffmpeg's fragmented MP4 as it arrives", () => {
  it("finds the init section, and each fragment's duration and whether it starts on a keyframe", () => {
    const { inits, fragments } = read([init(), fragment(10, true), fragment(10, false), fragment(5, false)])
    expect(inits).toBe(1)
    expect(fragments.map((f) => [f.duration, f.independent])).toEqual([
      [0.4, true],
      [0.4, false],
      [0.2, false]
    ])
  })

  it("refuses a box larger than it will hold instead of buffering it", () => {
    const reader = new Fmp4Reader({ init: () => undefined, fragment: () => undefined, maxBox: 1024 })
    expect(() => reader.push(box("mdat", Buffer.alloc(2048)))).toThrow(Fmp4Error)
  })
})

describe("packaging fragments as LL-HLS", () => {
  const packaged = (fragments: Array<[number, boolean]>, restartAfter?: number) => {
    const stored = new Map<string, Buffer>()
    let now = 1_000_000
    const packager = new Packager("pull7", "r1", { put: (name, bytes) => stored.set(name, bytes) }, () => (now += 400))
    const reader = new Fmp4Reader({ init: (b) => packager.initSection(b), fragment: (f) => packager.fragment(f) })
    reader.push(init())
    fragments.forEach(([frames, keyframe], i) => {
      if (i === restartAfter) reader.push(init())
      reader.push(fragment(frames, keyframe))
    })
    const playlist = packager.playlist()
    return { stored, playlist, text: playlist === undefined ? "" : withViewerGrant(playlist, "G") }
  }
  // a keyframe each second: parts of 0.4, 0.4 and 0.2 s
  const second: Array<[number, boolean]> = [
    [10, true],
    [10, false],
    [5, false]
  ]

  it("offers nothing before a whole segment, then cuts segments of about two seconds where a part starts on a keyframe", () => {
    expect(packaged(second).playlist).toBeUndefined()
    const { text, stored, playlist } = packaged([...second, ...second, ...second, [10, true]])
    expect(text).toMatch(/#EXT-X-PART-INF:PART-TARGET=0\.400\n/)
    expect(text).toContain("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.200")
    expect(text.match(/#EXTINF:([\d.]+),/g)).toEqual(["#EXTINF:2.000,"])
    // two keyframes in the whole segment, two in the one being made
    expect(text.match(/INDEPENDENT=YES/g)).toHaveLength(4)
    // the segment is its parts, one after the other
    const segment = /\n(\/live\/pull7\/m\/(r1-\d+)\.m4s)\?grant=G\n/.exec(text)?.[2] ?? ""
    const parts = [...stored.keys()].filter((name) => new RegExp(`^${segment}\\.\\d+\\.m4s$`).test(name))
    expect(parts).toHaveLength(6)
    expect(stored.get(`${segment}.m4s`)).toEqual(Buffer.concat(parts.map((name) => stored.get(name) as Buffer)))
    expect(playlist?.edge.parts).toBe(4)
    expect(text).toContain(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="/live/pull7/m/r1-${playlist?.edge.sequence}.4.m4s?grant=G"`)
  })

  it("grows a segment past two seconds while no keyframe comes, up to six", () => {
    const { text } = packaged([[10, true], ...Array.from({ length: 16 }, (): [number, boolean] => [10, false])])
    expect(text.match(/#EXTINF:([\d.]+),/g)).toEqual(["#EXTINF:6.000,"])
    expect(text).toMatch(/#EXT-X-TARGETDURATION:6\n/)
  })

  it("goes on after a discontinuity with the new init section when the source starts again", () => {
    const { text } = packaged([...second, ...second, ...second, ...second, ...second, [10, true]], 6)
    expect(text.match(/#EXT-X-MAP:URI="[^"]+"/g)).toEqual([
      '#EXT-X-MAP:URI="/live/pull7/m/r1-init1.mp4?grant=G"',
      '#EXT-X-MAP:URI="/live/pull7/m/r1-init2.mp4?grant=G"'
    ])
    expect(text.indexOf("#EXT-X-DISCONTINUITY\n")).toBeLessThan(text.indexOf("r1-init2"))
    const sequences = [...text.matchAll(/r1-(\d+)\.m4s\?/g)].map((match) => Number(match[1]))
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b))
  })
})
