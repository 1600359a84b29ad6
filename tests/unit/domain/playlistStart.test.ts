import { describe, expect, it } from "vitest"
import { playlistStart } from "../../../src/domain/playlistStart.ts"

const live = (segments: number, extra: ReadonlyArray<string> = []) =>
  [
    "#EXTM3U",
    "#EXT-X-VERSION:3",
    "#EXT-X-TARGETDURATION:2",
    "#EXT-X-MEDIA-SEQUENCE:100",
    ...extra,
    ...Array.from({ length: segments }, (_, index) => [`#EXTINF:2.000,`, `seg/${100 + index}.ts`]).flat()
  ].join("\n")

describe("where a player starts a media playlist", () => {
  it("starts a live window three target durations behind its newest data, as hls.js does", () => {
    // six 2 s segments: 12 s of window, 6 s back is the start of the fourth
    expect(playlistStart(live(6))).toEqual({ uri: "seg/103.ts", start: 6, duration: 2 })
    expect(playlistStart(live(10))).toEqual({ uri: "seg/107.ts", start: 14, duration: 2 })
  })

  it("never starts a short live window later than one target duration from its edge, nor before it", () => {
    expect(playlistStart(live(2))).toEqual({ uri: "seg/100.ts", start: 0, duration: 2 })
    expect(playlistStart(live(1))).toEqual({ uri: "seg/100.ts", start: 0, duration: 2 })
  })

  it("follows uneven segment lengths and discontinuities", () => {
    const text = [
      "#EXTM3U",
      "#EXT-X-TARGETDURATION:4",
      "#EXTINF:4,",
      "a.ts",
      "#EXTINF:3.5,",
      "b.ts",
      "#EXT-X-DISCONTINUITY",
      "#EXTINF:4,",
      "c.ts",
      "#EXTINF:4,",
      "d.ts",
      "#EXTINF:1,",
      "e.ts"
    ].join("\r\n")
    // 16.5 s of window, 12 s back is 4.5 s: inside b.ts
    expect(playlistStart(text)).toEqual({ uri: "b.ts", start: 4, duration: 3.5 })
  })

  it("starts a VOD at its first segment", () => {
    expect(playlistStart(`${live(4)}\n#EXT-X-ENDLIST`)).toEqual({ uri: "seg/100.ts", start: 0, duration: 2 })
  })

  it("leaves the choice to the library for renditions, keys, init segments, ranges and explicit starts", () => {
    expect(playlistStart("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow.m3u8")).toBeNull()
    expect(playlistStart(live(6, ['#EXT-X-KEY:METHOD=AES-128,URI="k"']))).toBeNull()
    expect(playlistStart(live(6, ['#EXT-X-MAP:URI="init.mp4"']))).toBeNull()
    expect(playlistStart(live(6, ["#EXT-X-BYTERANGE:1000@0"]))).toBeNull()
    expect(playlistStart(live(6, ["#EXT-X-START:TIME-OFFSET=-4"]))).toBeNull()
    expect(playlistStart(live(6, ["#EXT-X-KEY:METHOD=NONE"]))).toEqual({ uri: "seg/103.ts", start: 6, duration: 2 })
  })

  it("finds nothing in what is not a usable media playlist", () => {
    expect(playlistStart("")).toBeNull()
    expect(playlistStart("<html>not found</html>")).toBeNull()
    expect(playlistStart("#EXTM3U\n#EXT-X-TARGETDURATION:2")).toBeNull()
    expect(playlistStart("#EXTM3U\n#EXTINF:2,\na.ts")).toBeNull()
    expect(playlistStart("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:nope,\na.ts")).toBeNull()
  })
})
