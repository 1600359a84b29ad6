import { spawn } from "node:child_process"
import dgram from "node:dgram"
import { Writable } from "node:stream"
import { describe, expect, it } from "vitest"
import type { Publisher } from "../../../src/server/feeds/ingestFeed.ts"
import { startSrtServer } from "../../../src/server/feeds/srtServer.ts"
import { hasFfmpeg } from "../../support/ffmpegUpstream.ts"

const KEY = "ABCDEFGHIJKLMNOPQRSTUVWX"
const TS_PACKET = 188

/**
 * Whether an MPEG-TS stream lost nothing: every 188-byte packet starts with the sync byte, and on
 * each PID the continuity counter of the packets that carry a payload goes up by one.
 */
function continuityBreaks(bytes: Buffer): { readonly packets: number; readonly breaks: number } {
  const counters = new Map<number, number>()
  let breaks = 0
  let packets = 0
  for (let at = 0; at + TS_PACKET <= bytes.length; at += TS_PACKET) {
    packets += 1
    if (bytes[at] !== 0x47) return { packets, breaks: breaks + 1 }
    const pid = ((bytes.readUInt8(at + 1) & 0x1f) << 8) | bytes.readUInt8(at + 2)
    const flags = bytes.readUInt8(at + 3)
    if ((flags & 0x10) === 0 || pid === 0x1fff) continue
    const counter = flags & 0x0f
    const before = counters.get(pid)
    if (before !== undefined && counter !== ((before + 1) & 0x0f)) breaks += 1
    counters.set(pid, counter)
  }
  return { packets, breaks }
}

/**
 * A path between the encoder and the SRT port that loses every `nth` data packet the first time it
 * is sent (never a retransmission), as a bad network would, and nothing else.
 */
async function lossyPath(target: number, nth: number) {
  const front = dgram.createSocket("udp4")
  const back = dgram.createSocket("udp4")
  let caller: { address: string; port: number } | undefined
  let data = 0
  let lost = 0
  let retransmitted = 0
  front.on("message", (packet, from) => {
    caller = { address: from.address, port: from.port }
    const isData = packet.length > 16 && ((packet[0] ?? 0) & 0x80) === 0
    if (isData && ((packet[4] ?? 0) & 0x04) !== 0) retransmitted += 1
    else if (isData && ++data % nth === 0) {
      lost += 1
      return
    }
    back.send(packet, target, "127.0.0.1")
  })
  back.on("message", (packet) => {
    if (caller !== undefined) front.send(packet, caller.port, caller.address)
  })
  await Promise.all([
    new Promise<void>((resolve) => front.bind(0, "127.0.0.1", () => resolve())),
    new Promise<void>((resolve) => back.bind(0, "127.0.0.1", () => resolve()))
  ])
  return {
    port: front.address().port,
    counts: () => ({ lost, retransmitted }),
    close: () => {
      front.close()
      back.close()
    }
  }
}

/** Debian's ffmpeg sending `seconds` of its test pattern in real time as MPEG-TS over SRT. */
function encode(url: string, seconds: number) {
  const child = spawn(
    "ffmpeg",
    [
      ...[
        "-hide_banner",
        "-nostdin",
        "-loglevel",
        "error",
        "-re",
        "-f",
        "lavfi",
        "-i",
        `testsrc2=size=320x180:rate=25:duration=${seconds}`
      ],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-b:v", "600k", "-f", "mpegts", url]
    ],
    { stdio: ["ignore", "ignore", "pipe"] }
  )
  let said = ""
  child.stderr?.on("data", (chunk: Buffer) => (said += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)))
  return { child, exited, said: () => said }
}

describe.skipIf(!hasFfmpeg())("the SRT port, receiving from Debian's ffmpeg", () => {
  it("asks for what a bad network lost again and hands ffmpeg the whole stream, in order", async () => {
    const chunks: Array<Buffer> = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk)
        done()
      }
    })
    const ended: Array<string> = []
    const logged: Array<string> = []
    const server = await startSrtServer({
      host: "127.0.0.1",
      port: 0,
      log: (_level, message) => logged.push(message),
      gate: async (key, publisher: Publisher) => {
        if (key !== KEY) return { accepted: false, reason: "badKey", description: "no channel has this key" }
        expect(publisher.input().args).toContain("pipe:0")
        publisher.attach({ stdin: sink } as never)
        return { accepted: true, ended: () => ended.push(key) }
      }
    })
    const path = await lossyPath(server.port, 15)
    try {
      const encoder = encode(`srt://127.0.0.1:${path.port}?streamid=${KEY}`, 4)
      expect(await encoder.exited, encoder.said()).toBe(0)
      // the encoder's shutdown ends the publication
      await expect.poll(() => ended, { timeout: 5000 }).toEqual([KEY])
      const stream = Buffer.concat(chunks)
      const { packets, breaks } = continuityBreaks(stream)
      expect(path.counts().lost).toBeGreaterThan(10)
      expect(path.counts().retransmitted).toBeGreaterThanOrEqual(path.counts().lost)
      // four seconds at 600 kbit/s: some 1,600 packets of 188 bytes, none missing
      expect(packets).toBeGreaterThan(1000)
      expect(breaks).toBe(0)
      expect(stream.length % TS_PACKET).toBe(0)
    } finally {
      path.close()
      await server.close()
    }
  })

  it("refuses a wrong key in the handshake, with the reason the encoder shows", async () => {
    const server = await startSrtServer({
      host: "127.0.0.1",
      port: 0,
      log: () => undefined,
      gate: async () => ({ accepted: false, reason: "badKey", description: "no channel has this key" })
    })
    try {
      const encoder = encode(`srt://127.0.0.1:${server.port}?streamid=${KEY}`, 2)
      expect(await encoder.exited).not.toBe(0)
      expect(encoder.said()).toMatch(/reject|refus|403/i)
    } finally {
      await server.close()
    }
  })
})
