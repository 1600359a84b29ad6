import { describe, expect, it } from "vitest"
import { playlistMoment } from "../../../src/domain/playlistMoment.ts"

const T0 = Date.parse("2026-11-23T19:00:00.000Z")

/** A loop of three 2 s segments, its program date time written at every wrap, as the demo origin does. */
const window = (loops: number) =>
  [
    "#EXTM3U",
    "#EXT-X-VERSION:9",
    "#EXT-X-TARGETDURATION:2",
    "#EXT-X-MEDIA-SEQUENCE:30",
    ...Array.from({ length: loops * 3 }, (_, index) => [
      ...(index % 3 === 0 ? ["#EXT-X-DISCONTINUITY", `#EXT-X-PROGRAM-DATE-TIME:${new Date(T0 + index * 2000).toISOString()}`] : []),
      "#EXTINF:2.000,",
      `seg/${30 + index}.ts`
    ]).flat()
  ].join("\n")

describe("where a wall-clock moment is in a playlist", () => {
  it("finds the segment holding it and the position, following on from the last date written", () => {
    expect(playlistMoment(window(3), T0)).toEqual({ uri: "seg/30.ts", start: 0, duration: 2, position: 0 })
    expect(playlistMoment(window(3), T0 + 5_500)).toEqual({ uri: "seg/32.ts", start: 4, duration: 2, position: 5.5 })
    expect(playlistMoment(window(3), T0 + 13_000)).toEqual({ uri: "seg/36.ts", start: 12, duration: 2, position: 13 })
  })

  it("has nothing for a moment outside the segments, a playlist without dates or a delta update", () => {
    expect(playlistMoment(window(3), T0 - 1)).toBeNull()
    expect(playlistMoment(window(3), T0 + 18_000)).toBeNull()
    expect(playlistMoment(window(3).replace(/#EXT-X-PROGRAM-DATE-TIME:.*\n/g, ""), T0 + 1000)).toBeNull()
    expect(playlistMoment(window(3).replace("#EXT-X-MEDIA-SEQUENCE:30", "#EXT-X-SKIP:SKIPPED-SEGMENTS=3"), T0 + 1000)).toBeNull()
    expect(playlistMoment("not a playlist", T0)).toBeNull()
    expect(playlistMoment(window(1), Number.NaN)).toBeNull()
  })
})
