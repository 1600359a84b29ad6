import { describe, expect, it } from "vitest"
import { localName, PlaylistError, reaches, rewritePlaylist, withViewerGrant } from "../../../src/server/feeds/relayPlaylist.ts"
import { createRelayRing } from "../../../src/server/feeds/relayRing.ts"

const NONE = { sequenceOffset: 0, discontinuityOffset: 0 }
const BASE = "https://provider.example/live/ch1/media.m3u8?token=abc"

const LL = `#EXTM3U
#EXT-X-VERSION:9
#EXT-X-TARGETDURATION:2
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,PART-HOLD-BACK=1.2
#EXT-X-PART-INF:PART-TARGET=0.4
#EXT-X-MEDIA-SEQUENCE:100
#EXT-X-MAP:URI="init.mp4"
#EXT-X-PROGRAM-DATE-TIME:2026-11-28T10:00:00.000Z
#EXTINF:2.000,
seg100.m4s
#EXT-X-PART:DURATION=0.4,URI="part101.0.m4s",INDEPENDENT=YES
#EXT-X-PART:DURATION=0.4,URI="/other/part101.1.m4s"
#EXT-X-X-CUSTOM:kept as it is
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="https://cdn.example/part101.2.m4s"
#EXT-X-RENDITION-REPORT:URI="../ch2/media.m3u8",LAST-MSN=101,LAST-PART=1
`

const MULTIVARIANT = `#EXTM3U
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=3000000,AUDIO="a"
hd/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"
https://other.example/sd.m3u8
`

describe("relayed playlists, rewritten line by line", () => {
  it("turns each byte range into an object of its own: segments, parts, the init section and a hint of known length", () => {
    const upstream = `#EXTM3U
#EXT-X-TARGETDURATION:1
#EXT-X-PART-INF:PART-TARGET=0.5
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-MAP:URI="index.m4s",BYTERANGE="1334@0"
#EXTINF:1.000000,
#EXT-X-BYTERANGE:86437@1334
index.m4s
#EXTINF:1.000000,
#EXT-X-BYTERANGE:87041
index.m4s
#EXT-X-PART:DURATION=0.5,URI="index.m4s",BYTERANGE="40000@174812",INDEPENDENT=YES
#EXT-X-PART:DURATION=0.5,BYTERANGE="41000",URI="index.m4s"
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="index.m4s",BYTERANGE-START=255812,BYTERANGE-LENGTH=42000
`
    const playlist = rewritePlaylist(upstream, "http://up.example/ch/index.m3u8", "relay3", NONE)
    const text = withViewerGrant(playlist, "G")
    expect(text).not.toMatch(/BYTERANGE/)
    const ranges = [...playlist.uris.values()].map((uri) => uri.range)
    expect(ranges).toEqual([
      { offset: 0, length: 1334 },
      { offset: 1334, length: 86437 },
      // no offset: right after the previous segment's range
      { offset: 87771, length: 87041 },
      { offset: 174812, length: 40000 },
      // no offset: right after the previous part's range, not the segment's
      { offset: 214812, length: 41000 },
      { offset: 255812, length: 42000 }
    ])
    expect(new Set(playlist.uris.keys()).size).toBe(6)
    expect(text).toMatch(/^#EXT-X-MAP:URI="\/live\/relay3\/m\/[\w-]{22}\.m4s\?grant=G"$/m)
    expect(text).toMatch(/^#EXT-X-PART:DURATION=0\.5,URI="[^"]+",INDEPENDENT=YES$/m)
    expect(text).toMatch(/^#EXT-X-PART:DURATION=0\.5,URI="[^"]+"$/m)
    expect(text).toMatch(/^#EXT-X-PRELOAD-HINT:TYPE=PART,URI="[^"]+"$/m)
    expect(playlist.edge).toEqual({ sequence: 2, parts: 2 })
  })

  it("leaves out a hint of a range still growing, and refuses a range that is not one", () => {
    const hinted = `#EXTM3U
#EXT-X-TARGETDURATION:1
#EXTINF:1,
a.ts
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="b.mp4",BYTERANGE-START=100
`
    expect(withViewerGrant(rewritePlaylist(hinted, BASE, "relay3", NONE), "G")).not.toContain("PRELOAD-HINT")
    expect(() =>
      rewritePlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n#EXT-X-BYTERANGE:abc\na.ts\n", BASE, "relay3", NONE)
    ).toThrow(PlaylistError)
  })

  it("makes every URI ours with the viewer's grant, keeps unknown tags and program date times, drops delta updates", () => {
    const playlist = rewritePlaylist(LL, BASE, "relay7", NONE)
    const text = withViewerGrant(playlist, "g1.GRANT")
    expect(text).not.toContain("provider.example")
    expect(text).not.toContain("cdn.example")
    expect(text).toContain("#EXT-X-X-CUSTOM:kept as it is")
    expect(text).toContain("#EXT-X-PROGRAM-DATE-TIME:2026-11-28T10:00:00.000Z")
    expect(text).toContain("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.2")
    const uris = [...text.matchAll(/URI="([^"]+)"/g)]
      .map((match) => match[1])
      .concat(text.split("\n").filter((line) => line.startsWith("/")))
    expect(uris).toHaveLength(6)
    for (const uri of uris) expect(uri).toMatch(/^\/live\/relay7\/(m\/[\w-]{22}(\.m4s|\.mp4)?|p\/[\w-]{22}\.m3u8)\?grant=g1\.GRANT$/)
    // each local name stands for the upstream URL it was resolved to, relative ones against the playlist's
    const upstream = [...playlist.uris.values()].map((uri) => uri.url).sort()
    expect(upstream).toEqual(
      [
        "https://cdn.example/part101.2.m4s",
        "https://provider.example/live/ch1/init.mp4",
        "https://provider.example/live/ch1/part101.0.m4s",
        "https://provider.example/live/ch1/seg100.m4s",
        "https://provider.example/live/ch2/media.m3u8",
        "https://provider.example/other/part101.1.m4s"
      ].sort()
    )
    expect(playlist).toMatchObject({ multivariant: false, targetDuration: 2, partTarget: 0.4, canBlockReload: true, firstSequence: 100 })
    expect(playlist.edge).toEqual({ sequence: 101, parts: 2 })
  })

  it("names variants and renditions of a multivariant playlist as playlists", () => {
    const playlist = rewritePlaylist(MULTIVARIANT, "https://provider.example/master.m3u8", "relay2", NONE)
    expect(playlist.multivariant).toBe(true)
    expect([...playlist.uris.values()].every((uri) => uri.playlist)).toBe(true)
    expect(withViewerGrant(playlist, "G").match(/\/live\/relay2\/p\/[\w-]{22}\.m3u8\?grant=G/g)).toHaveLength(3)
  })

  it("renumbers after an upstream restart: sequences and the discontinuity sequence move on, other renditions' reports go", () => {
    const playlist = rewritePlaylist(LL, BASE, "relay7", { sequenceOffset: 50, discontinuityOffset: 1 })
    const text = withViewerGrant(playlist, "G")
    expect(text).toContain("#EXT-X-MEDIA-SEQUENCE:150")
    expect(text).toContain("#EXT-X-DISCONTINUITY-SEQUENCE:1")
    expect(text).not.toContain("RENDITION-REPORT")
    expect(playlist.edge).toEqual({ sequence: 151, parts: 2 })
  })

  it("refuses what is not a playlist, or lists nothing", () => {
    expect(() => rewritePlaylist("<!doctype html>", BASE, "r", NONE)).toThrow(PlaylistError)
    expect(() => rewritePlaylist("#EXTM3U\n#EXT-X-TARGETDURATION:2\n", BASE, "r", NONE)).toThrow(/lists no segments/)
  })

  it("gives the same upstream URL the same name everywhere, and keeps a media name's extension", () => {
    expect(localName("https://a.example/x/seg1.ts", false)).toBe(localName("https://a.example/x/seg1.ts", false))
    expect(localName("https://a.example/x/seg1.ts", false)).toMatch(/^[\w-]{22}\.ts$/)
    expect(localName("https://a.example/x/v.m3u8", true)).toMatch(/^[\w-]{22}\.m3u8$/)
    expect(localName("https://a.example/x/seg1.ts", false)).not.toBe(localName("https://a.example/x/seg2.ts", false))
  })

  it("answers a blocking reload once the segment is complete or the part is out", () => {
    const edge = { sequence: 101, parts: 2 }
    expect(reaches(edge, 100, undefined)).toBe(true)
    expect(reaches(edge, 101, undefined)).toBe(false)
    expect(reaches(edge, 101, 1)).toBe(true)
    expect(reaches(edge, 101, 2)).toBe(false)
  })
})

describe("the relay's ring", () => {
  const entry = (bytes: number) => ({ body: Buffer.alloc(bytes), contentType: "video/mp2t" })

  it("holds no channel past its own cap, the oldest going first, and all of them no more than the total", () => {
    const ring = createRelayRing({ perChannel: 100, total: 250 })
    for (let i = 0; i < 5; i += 1) ring.set("a", `s${i}`, entry(30))
    expect(ring.bytes("a")).toBe(90)
    expect(ring.get("a", "s0")).toBeUndefined()
    expect(ring.get("a", "s4")).toBeDefined()
    for (let i = 0; i < 3; i += 1) ring.set("b", `s${i}`, entry(40))
    for (let i = 0; i < 3; i += 1) ring.set("c", `s${i}`, entry(40))
    expect(ring.bytes()).toBeLessThanOrEqual(250)
    expect(ring.bytes()).toBe(ring.bytes("a") + ring.bytes("b") + ring.bytes("c"))
    ring.set("a", "huge", entry(101))
    expect(ring.get("a", "huge")).toBeUndefined()
    ring.clear("c")
    expect(ring.bytes("c")).toBe(0)
    expect(ring.get("c", "s2")).toBeUndefined()
  })
})
