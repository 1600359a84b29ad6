/**
 * The receiving side of one SRT connection in live mode. Data packets are put back in order and
 * handed on, every 20 ms while data comes, without waiting out the latency (ffmpeg reads MPEG-TS,
 * which carries its own clock). A gap is reported at once (NAK) and again periodically until the
 * sender fills it; one still open after the agreed latency is given up, as SRT's too-late drop
 * does, and what follows goes on. ACKs tell the sender what arrived; its ACKACKs give the round
 * trip the loss reports are paced by. Everything runs as packets arrive, plus the listener's slow
 * housekeeping tick: a timer every few ms would cost more than the packets.
 */
import { Control, controlPacket, dataSequence, HEADER, lossList, nextSequence, sequenceDistance } from "./srtPackets.ts"

/** how often what is in order goes to ffmpeg (one write instead of one per packet) */
const FLUSH_MS = 20
/**
 * How often we ACK. SRT's own receiver does every 10 ms; the sender only needs to learn what
 * arrived before its buffer fills or the latency passes (retransmission follows our loss reports),
 * and each ACK costs a packet each way (the sender's ACKACK).
 */
const ACK_MS = 50
const MIN_NAK_MS = 20
const KEEPALIVE_MS = 1000
/** packets we take out of order, at most (also the flow window we announce) */
export const FLOW_WINDOW = 8192
/** loss ranges a NAK carries at most */
const NAK_RANGES = 64
/** ACKs remembered for their ACKACK */
const ACKS_KEPT = 128

interface Loss {
  first: number
  last: number
  /** when the gap was seen (ms): past the latency it is given up */
  readonly since: number
}

export interface ReceiverOptions {
  readonly initialSequence: number
  /** the agreed latency (ms): how long a gap is waited for */
  readonly latencyMs: number
  /** the caller's socket id: every packet of ours is addressed to it */
  readonly peer: number
  /** our clock for packet timestamps (µs since the listener started) */
  readonly timestamp: () => number
  readonly send: (packet: Buffer) => void
  /** the stream's bytes, in order */
  readonly deliver: (bytes: Buffer) => void
}

export class SrtReceiver {
  /** the next sequence number to hand on */
  private next: number
  /** the highest sequence number seen */
  private highest: number
  private readonly held = new Map<number, Buffer>()
  private losses: Array<Loss> = []
  private pending: Array<Buffer> = []
  private ackNumber = 1
  private readonly acksSent = new Map<number, number>()
  private lastAckSequence = -1
  private lastAckAt = Number.NEGATIVE_INFINITY
  private lastNakAt = Number.NEGATIVE_INFINITY
  private lastFlushAt = Number.NEGATIVE_INFINITY
  private lastSentAt = 0
  /** round-trip time and its variation, µs */
  private rtt = 100_000
  private rttVariation = 50_000
  private rateSince = 0
  private ratePackets = 0
  private rateBytes = 0
  private packetsPerSecond = 0
  private bytesPerSecond = 0
  /** packets given up (too late) */
  dropped = 0
  private readonly options: ReceiverOptions

  constructor(options: ReceiverOptions, now: number) {
    this.options = options
    this.next = options.initialSequence
    this.highest = nextSequence(options.initialSequence, -1)
    this.lastAckSequence = options.initialSequence
    this.rateSince = now
    this.lastSentAt = now
  }

  data(packet: Buffer, now: number): void {
    if (packet.length <= HEADER) return
    const sequence = dataSequence(packet)
    const ahead = sequenceDistance(this.next, sequence)
    // already handed on (or given up), or impossibly far ahead
    if (ahead < 0 || ahead >= FLOW_WINDOW * 4 || this.held.has(sequence)) return
    this.ratePackets += 1
    this.rateBytes += packet.length
    const payload = packet.subarray(HEADER)
    const beyond = sequenceDistance(this.highest, sequence)
    if (beyond > 0) {
      if (beyond > 1) {
        const gap: Loss = { first: nextSequence(this.highest), last: nextSequence(sequence, -1), since: now }
        this.losses.push(gap)
        this.lastNakAt = now
        this.nak([[gap.first, gap.last]], now)
      }
      this.highest = sequence
    } else this.found(sequence)
    if (ahead === 0) {
      this.pending.push(payload)
      this.next = nextSequence(sequence)
      this.drain()
    } else {
      this.held.set(sequence, payload)
      // a sender that keeps going while a gap stays open: the oldest gap goes first
      if (this.held.size > FLOW_WINDOW) this.giveUpFirst()
    }
    this.tick(now)
  }

  /** A control packet from the caller; true when it ends the connection. */
  control(packet: Buffer, now: number): boolean {
    switch (packet.readUInt16BE(0) & 0x7fff) {
      case Control.ackack: {
        const sent = this.acksSent.get(packet.readUInt32BE(4))
        if (sent === undefined) return false
        this.acksSent.delete(packet.readUInt32BE(4))
        const sample = (now - sent) * 1000
        this.rttVariation = (3 * this.rttVariation + Math.abs(this.rtt - sample)) / 4
        this.rtt = (7 * this.rtt + sample) / 8
        return false
      }
      case Control.dropRequest: {
        if (packet.length < HEADER + 8) return false
        this.senderDropped(packet.readUInt32BE(HEADER) & 0x7fffffff, packet.readUInt32BE(HEADER + 4) & 0x7fffffff)
        return false
      }
      case Control.shutdown:
        return true
      default:
        return false
    }
  }

  /**
   * What is due now: too-late gaps given up; what is in order handed on (every 20 ms) and an ACK
   * (every 50 ms); the loss report when its time has come. Run as data comes and by the housekeeping
   * tick (which also sends a keepalive when we have said nothing for a second).
   */
  tick(now: number): void {
    while (this.losses.length > 0 && this.isNextMissing() && now - (this.losses[0] as Loss).since > this.options.latencyMs)
      this.giveUpFirst()
    if (now - this.lastFlushAt >= FLUSH_MS) {
      this.lastFlushAt = now
      this.flush()
    }
    if (this.next !== this.lastAckSequence && now - this.lastAckAt >= ACK_MS) this.ack(now)
    if (this.losses.length > 0 && now - this.lastNakAt >= Math.max(MIN_NAK_MS, (this.rtt + 4 * this.rttVariation) / 2000)) {
      this.lastNakAt = now
      this.nak(
        this.losses.slice(0, NAK_RANGES).map((loss) => [loss.first, loss.last] as const),
        now
      )
    }
    if (now - this.rateSince >= 1000) {
      const seconds = (now - this.rateSince) / 1000
      this.packetsPerSecond = Math.round(this.ratePackets / seconds)
      this.bytesPerSecond = Math.round(this.rateBytes / seconds)
      this.ratePackets = 0
      this.rateBytes = 0
      this.rateSince = now
    }
    if (now - this.lastSentAt >= KEEPALIVE_MS)
      this.send(controlPacket(Control.keepalive, 0, this.options.timestamp(), this.options.peer, Buffer.alloc(4)), now)
  }

  /** What is in order is handed on (as the connection ends, too). */
  flush(): void {
    if (this.pending.length === 0) return
    const bytes = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending)
    this.pending = []
    this.options.deliver(bytes)
  }

  private send(packet: Buffer, now: number): void {
    this.lastSentAt = now
    this.options.send(packet)
  }

  private ack(now: number): void {
    const body = Buffer.alloc(28)
    body.writeUInt32BE(this.next, 0)
    body.writeUInt32BE(Math.round(this.rtt), 4)
    body.writeUInt32BE(Math.round(this.rttVariation), 8)
    body.writeUInt32BE(Math.max(2, FLOW_WINDOW - this.held.size), 12)
    body.writeUInt32BE(this.packetsPerSecond, 16)
    body.writeUInt32BE(this.packetsPerSecond, 20)
    body.writeUInt32BE(this.bytesPerSecond, 24)
    const number = this.ackNumber
    this.ackNumber = this.ackNumber >= 0x7fffffff ? 1 : this.ackNumber + 1
    this.acksSent.set(number, now)
    if (this.acksSent.size > ACKS_KEPT) this.acksSent.delete(this.acksSent.keys().next().value as number)
    this.lastAckSequence = this.next
    this.lastAckAt = now
    this.send(controlPacket(Control.ack, number, this.options.timestamp(), this.options.peer, body), now)
  }

  private nak(ranges: ReadonlyArray<readonly [number, number]>, now: number): void {
    this.send(controlPacket(Control.nak, 0, this.options.timestamp(), this.options.peer, lossList(ranges)), now)
  }

  private isNextMissing(): boolean {
    return (this.losses[0] as Loss | undefined)?.first === this.next
  }

  /** Hands on what is in order from `next`, stepping over what the sender said it dropped. */
  private drain(): void {
    for (;;) {
      const payload = this.held.get(this.next)
      if (payload !== undefined) {
        this.held.delete(this.next)
        this.pending.push(payload)
      } else if (sequenceDistance(this.next, this.highest) < 0 || this.isNextMissing()) return
      this.next = nextSequence(this.next)
    }
  }

  /** A retransmission came: its number is no longer missing. */
  private found(sequence: number): void {
    const index = this.losses.findIndex((loss) => sequenceDistance(loss.first, sequence) >= 0 && sequenceDistance(sequence, loss.last) >= 0)
    if (index < 0) return
    const loss = this.losses[index] as Loss
    const parts: Array<Loss> = []
    if (loss.first !== sequence) parts.push({ first: loss.first, last: nextSequence(sequence, -1), since: loss.since })
    if (loss.last !== sequence) parts.push({ first: nextSequence(sequence), last: loss.last, since: loss.since })
    this.losses.splice(index, 1, ...parts)
  }

  /** The oldest gap is waited for no longer. */
  private giveUpFirst(): void {
    const loss = this.losses.shift()
    if (loss === undefined) return
    this.dropped += sequenceDistance(loss.first, loss.last) + 1
    if (sequenceDistance(this.next, loss.first) <= 0) this.next = nextSequence(loss.last)
    this.drain()
  }

  /** The sender will not send these again: no longer missing, stepped over when reached. */
  private senderDropped(first: number, last: number): void {
    if (sequenceDistance(first, last) < 0) return
    const kept: Array<Loss> = []
    for (const loss of this.losses) {
      if (sequenceDistance(loss.last, first) > 0 || sequenceDistance(last, loss.first) > 0) kept.push(loss)
      else {
        if (sequenceDistance(loss.first, first) > 0) kept.push({ first: loss.first, last: nextSequence(first, -1), since: loss.since })
        if (sequenceDistance(last, loss.last) > 0) kept.push({ first: nextSequence(last), last: loss.last, since: loss.since })
      }
    }
    this.losses = kept
    // a drop beyond what came so far: those numbers will never come
    if (sequenceDistance(this.highest, last) > 0) this.highest = last
    this.drain()
  }
}
