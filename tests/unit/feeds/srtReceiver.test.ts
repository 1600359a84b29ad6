import { describe, expect, it } from "vitest"
import { Control, controlPacket, nextSequence } from "../../../src/server/feeds/srtPackets.ts"
import { SrtReceiver } from "../../../src/server/feeds/srtReceiver.ts"

const PEER = 0x1234

/** A data packet carrying one byte: its sequence number modulo 256. */
const data = (sequence: number): Buffer => {
  const packet = Buffer.alloc(17)
  packet.writeUInt32BE(sequence, 0)
  packet.writeUInt32BE(0xc0000000, 4)
  packet[16] = sequence & 0xff
  return packet
}

interface Sent {
  readonly type: number
  readonly typeSpecific: number
  readonly words: Array<number>
}

function receiver(initialSequence: number, latencyMs = 120) {
  const sent: Array<Sent> = []
  const delivered: Array<number> = []
  const srt = new SrtReceiver(
    {
      initialSequence,
      latencyMs,
      peer: PEER,
      timestamp: () => 0,
      send: (packet) => {
        expect(packet.readUInt32BE(12)).toBe(PEER)
        const words: Array<number> = []
        for (let at = 16; at + 4 <= packet.length; at += 4) words.push(packet.readUInt32BE(at))
        sent.push({ type: packet.readUInt16BE(0) & 0x7fff, typeSpecific: packet.readUInt32BE(4), words })
      },
      deliver: (bytes) => delivered.push(...bytes)
    },
    0
  )
  const of = (type: number) => sent.filter((packet) => packet.type === type)
  return { srt, sent, delivered, of }
}

describe("SRT receiver", () => {
  it("hands on packets in order, in one write per 20 ms, and ACKs what arrived with the next number expected", () => {
    const { srt, delivered, of } = receiver(100)
    srt.data(data(100), 100)
    srt.data(data(101), 101)
    srt.data(data(102), 105)
    expect(delivered).toEqual([100])
    srt.data(data(103), 125)
    expect(delivered).toEqual([100, 101, 102, 103])
    const acks = of(Control.ack)
    expect(acks.length).toBeGreaterThanOrEqual(1)
    expect(acks.at(-1)?.words[0]).toBe(101)
    srt.tick(200)
    expect(of(Control.ack).at(-1)?.words[0]).toBe(104)
    // seven words: next expected, RTT, its variation, room left, rates
    expect(of(Control.ack).at(-1)?.words).toHaveLength(7)
  })

  it("reports a gap at once and again until it is filled, and puts the late packet in its place", () => {
    const { srt, delivered, of } = receiver(10, 1000)
    srt.data(data(10), 0)
    srt.data(data(13), 30)
    expect(of(Control.nak).map((nak) => nak.words)).toEqual([[(11 | 0x80000000) >>> 0, 12]])
    // paced by the round trip: 100 ms assumed at first, 50 ms its variation, half of RTT + 4 × variation
    srt.tick(170)
    expect(of(Control.nak)).toHaveLength(1)
    srt.tick(190)
    expect(of(Control.nak)).toHaveLength(2)
    srt.data(data(12), 200)
    srt.data(data(11), 210)
    srt.tick(250)
    expect(delivered).toEqual([10, 11, 12, 13])
    const naks = of(Control.nak).length
    srt.tick(400)
    expect(of(Control.nak)).toHaveLength(naks)
    expect(srt.dropped).toBe(0)
  })

  it("gives a gap up after the latency and goes on with what follows it", () => {
    const { srt, delivered } = receiver(0, 120)
    srt.data(data(0), 0)
    srt.data(data(2), 10)
    srt.data(data(3), 20)
    srt.tick(100)
    expect(delivered).toEqual([0])
    srt.tick(140)
    expect(delivered).toEqual([0, 2, 3])
    expect(srt.dropped).toBe(1)
    // the given-up packet coming after all is not handed on
    srt.data(data(1), 150)
    srt.tick(200)
    expect(delivered).toEqual([0, 2, 3])
  })

  it("steps over what the sender says it dropped", () => {
    const { srt, delivered, of } = receiver(50)
    srt.data(data(50), 0)
    srt.data(data(54), 5)
    srt.control(controlPacket(Control.dropRequest, 0, 0, 0, Buffer.from([0, 0, 0, 51, 0, 0, 0, 53])), 10)
    srt.tick(40)
    expect(delivered).toEqual([50, 54])
    // dropped beyond what came: those numbers are not waited for either
    srt.control(controlPacket(Control.dropRequest, 0, 0, 0, Buffer.from([0, 0, 0, 55, 0, 0, 0, 56])), 50)
    srt.data(data(57), 55)
    srt.tick(100)
    expect(delivered).toEqual([50, 54, 57])
    expect(of(Control.nak)).toHaveLength(1)
  })

  it("counts sequence numbers across their wrap at 2^31", () => {
    const last = 0x7fffffff
    const { srt, delivered } = receiver(last - 1)
    srt.data(data(last - 1), 0)
    srt.data(data(last), 1)
    srt.data(data(1), 2)
    srt.data(data(0), 3)
    srt.tick(50)
    expect(delivered).toEqual([(last - 1) & 0xff, last & 0xff, 0, 1])
    expect(nextSequence(last)).toBe(0)
  })

  it("takes the round trip from ACKACKs, ignores duplicates, and ends on shutdown", () => {
    const { srt, delivered, of } = receiver(0)
    srt.data(data(0), 0)
    srt.data(data(0), 1)
    srt.tick(60)
    expect(delivered).toEqual([0])
    const ack = of(Control.ack)[0]
    expect(ack).toBeDefined()
    expect(srt.control(controlPacket(Control.ackack, ack?.typeSpecific ?? 0, 0, 0), 20)).toBe(false)
    srt.data(data(1), 70)
    srt.tick(130)
    // 100 ms assumed at first, then 7/8 of it plus 1/8 of the 20 ms measured
    expect(of(Control.ack).at(-1)?.words[1]).toBe(90_000)
    expect(srt.control(controlPacket(Control.shutdown, 0, 0, 0), 140)).toBe(true)
  })

  it("says it is alive after a second of saying nothing", () => {
    const { srt, of } = receiver(0)
    srt.tick(500)
    expect(of(Control.keepalive)).toHaveLength(0)
    srt.tick(1000)
    expect(of(Control.keepalive)).toHaveLength(1)
  })
})
