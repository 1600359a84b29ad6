import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { Amf0Error, decodeAmf0, encodeAmf0 } from "../../../src/server/feeds/amf0.ts"
import { progressReader } from "../../../src/server/feeds/ffmpegProgress.ts"
import { FLV_AUDIO, FLV_VIDEO, FlvFeed, flvTag } from "../../../src/server/feeds/flvWriter.ts"
import { looksLikeIngestKey, newIngestKey, storedIngestKey } from "../../../src/server/feeds/ingestFeed.ts"
import { keyOf } from "../../../src/server/feeds/rtmpServer.ts"
import { streamIdOf } from "../../../src/server/feeds/srtPackets.ts"

describe("AMF0", () => {
  it("reads back what it writes: numbers, booleans, strings, null, objects, arrays", () => {
    const values = ["connect", 1, { app: "live", tcUrl: "rtmp://h/live", nested: { ok: true, list: [1, "two", null] } }, null, false]
    expect(decodeAmf0(encodeAmf0(...values))).toEqual(values)
  })

  it("reads an ECMA array (FLV metadata) and a long string", () => {
    const ecma = Buffer.concat([Buffer.from([0x08, 0, 0, 0, 1]), encodeAmf0({ width: 320 }).subarray(1)])
    expect(decodeAmf0(ecma)).toEqual([{ width: 320 }])
    const long = Buffer.concat([Buffer.from([0x0c, 0, 0, 0, 3]), Buffer.from("abc")])
    expect(decodeAmf0(long)).toEqual(["abc"])
  })

  it("refuses what is cut short, unknown, or nested without end, never reading past the message", () => {
    expect(() => decodeAmf0(Buffer.from([0x02, 0, 9, 0x41]))).toThrow(Amf0Error)
    expect(() => decodeAmf0(Buffer.from([0x11]))).toThrow(/AMF0 type 17/)
    expect(() => decodeAmf0(Buffer.alloc(64, 0x03))).toThrow(Amf0Error)
    expect(() => decodeAmf0(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff]))).toThrow(/too large/)
  })
})

describe("the keys", () => {
  it("are 24 URL-safe characters, kept only as a SHA-256", () => {
    const key = newIngestKey()
    expect(looksLikeIngestKey(key)).toBe(true)
    expect(storedIngestKey(key)).toMatch(/^ingest:sha256:[0-9a-f]{64}$/)
    expect(storedIngestKey(key)).not.toContain(key)
    expect(looksLikeIngestKey("short")).toBe(false)
    expect(looksLikeIngestKey(`${key.slice(0, 23)}/`)).toBe(false)
  })

  it("are read from RTMP's stream name, or from the application path when the encoder put it there", () => {
    expect(keyOf("live", "abc?token=1")).toBe("abc")
    expect(keyOf("live/abc", "")).toBe("abc")
    expect(keyOf("live", "")).toBe("live")
  })

  it("are read from SRT's stream id extension, whose words are byte-reversed", () => {
    // a conclusion as ffmpeg 5.1 sends it (HSREQ, then the stream id "ABCDEFGHIJKLMNOPQRSTUVWX")
    const packet = Buffer.concat([
      Buffer.alloc(64),
      Buffer.from("0001000300010501000000bf007800000005000644434241484746454c4b4a49504f4e4d5453525158575655", "hex")
    ])
    expect(streamIdOf(packet)).toBe("ABCDEFGHIJKLMNOPQRSTUVWX")
    expect(streamIdOf(Buffer.concat([Buffer.alloc(64), Buffer.from("00050009", "hex")]))).toBeUndefined()
  })
})

describe("the FLV given to ffmpeg", () => {
  const avcConfig = Buffer.from([0x17, 0, 0, 0, 0, 1])
  const keyframe = Buffer.from([0x17, 1, 0, 0, 0, 9])
  const interframe = Buffer.from([0x27, 1, 0, 0, 0, 9])
  const aacConfig = Buffer.from([0xaf, 0, 0x11, 0x90])
  const aacFrame = Buffer.from([0xaf, 1, 7])

  it("writes tags with 32-bit times and the previous tag's size", () => {
    const tag = flvTag(FLV_VIDEO, 0x12345678, Buffer.from([1, 2]))
    expect(tag[0]).toBe(9)
    expect(tag.readUIntBE(4, 3)).toBe(0x345678)
    expect(tag[7]).toBe(0x12)
    expect(tag.readUInt32BE(tag.length - 4)).toBe(13)
  })

  it("gives an ffmpeg started mid-publication the header, the codec configurations, then media from the next keyframe", () => {
    const feed = new FlvFeed()
    feed.metadataOf(encodeAmf0("onMetaData", { videocodecid: 7 }), { audio: false, video: true })
    feed.media(FLV_VIDEO, 0, avcConfig)
    feed.media(FLV_VIDEO, 40, keyframe)
    const out = new PassThrough()
    const written: Array<Buffer> = []
    out.on("data", (chunk: Buffer) => written.push(chunk))
    feed.attach(out)
    feed.media(FLV_VIDEO, 80, interframe)
    feed.media(FLV_VIDEO, 120, keyframe)
    feed.media(FLV_VIDEO, 160, interframe)
    const bytes = Buffer.concat(written)
    expect(bytes.subarray(0, 3).toString()).toBe("FLV")
    // video only, as the metadata said
    expect(bytes[4]).toBe(1)
    const types: Array<number> = []
    for (let at = 13; at < bytes.length; at += 11 + bytes.readUIntBE(at + 1, 3) + 4) types.push(bytes[at] ?? 0)
    // metadata, configuration, then the keyframe and what follows (the frame before it is left out)
    expect(types).toEqual([18, 9, 9, 9])
  })

  it("waits to write the header until the publisher says which tracks it sends", () => {
    const feed = new FlvFeed()
    const out = new PassThrough()
    const written: Array<Buffer> = []
    out.on("data", (chunk: Buffer) => written.push(chunk))
    feed.attach(out)
    expect(written).toEqual([])
    feed.metadataOf(encodeAmf0("onMetaData", { audiocodecid: 10 }), { audio: true, video: false })
    feed.media(FLV_AUDIO, 0, aacConfig)
    feed.media(FLV_AUDIO, 21, aacFrame)
    expect(Buffer.concat(written)[4]).toBe(4)
  })

  it("writes audio with the next video frame, in one write, and what is held when the publication ends", () => {
    const feed = new FlvFeed()
    feed.metadataOf(encodeAmf0("onMetaData", { videocodecid: 7, audiocodecid: 10 }), { audio: true, video: true })
    const out = new PassThrough()
    const writes: Array<Buffer> = []
    const write = out.write.bind(out)
    out.write = ((chunk: Buffer) => {
      writes.push(chunk)
      return write(chunk)
    }) as typeof out.write
    feed.attach(out)
    feed.media(FLV_VIDEO, 0, avcConfig)
    feed.media(FLV_AUDIO, 0, aacConfig)
    feed.media(FLV_VIDEO, 0, keyframe)
    const before = writes.length
    feed.media(FLV_AUDIO, 21, aacFrame)
    feed.media(FLV_AUDIO, 42, aacFrame)
    expect(writes).toHaveLength(before)
    feed.media(FLV_VIDEO, 40, interframe)
    expect(writes).toHaveLength(before + 1)
    const types = (bytes: Buffer): Array<number> => {
      const found: Array<number> = []
      for (let at = 0; at < bytes.length; at += 11 + bytes.readUIntBE(at + 1, 3) + 4) found.push(bytes[at] ?? 0)
      return found
    }
    expect(types(writes.at(-1) as Buffer)).toEqual([8, 8, 9])
    feed.media(FLV_AUDIO, 63, aacFrame)
    feed.end()
    expect(types(writes.at(-1) as Buffer)).toEqual([8])
  })
})

describe("ffmpeg's progress", () => {
  it("gives frame rate and speed since the last report, and the bitrate", () => {
    let clock = 0
    const reports: Array<unknown> = []
    const read = progressReader(
      (progress) => reports.push(progress),
      () => clock
    )
    read(Buffer.from("frame=0\nfps=0.00\nbitrate=N/A\nout_time_us=0\nspeed=N/A\nprogress=continue\n"))
    clock = 1000
    read(Buffer.from("frame=150\nfps=150.0\nbitrate= 512.5kbits/s\nout_time_us=6000000\nspeed=6.0x\nprog"))
    read(Buffer.from("ress=continue\n"))
    clock = 2000
    read(Buffer.from("frame=175\nbitrate= 500.0kbits/s\nout_time_us=7000000\nprogress=continue\n"))
    expect(reports).toEqual([
      { fps: null, speed: null, bitrate: null },
      { fps: 150, speed: 6, bitrate: 512_500 },
      { fps: 25, speed: 1, bitrate: 500_000 }
    ])
  })
})
