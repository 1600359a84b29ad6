/**
 * SRT's packets, as far as a listener that only receives needs them: the 16-byte header, the
 * handshake (version 5, with its extensions), and the control packets a receiver sends (ACK, NAK,
 * keepalive, shutdown). Numbers are big-endian; sequence numbers have 31 bits and wrap.
 */

export const HEADER = 16
export const HANDSHAKE_SIZE = HEADER + 48

export const Control = {
  handshake: 0,
  keepalive: 1,
  ack: 2,
  nak: 3,
  shutdown: 5,
  ackack: 6,
  dropRequest: 7
} as const

export const Handshake = { induction: 1, conclusion: 0xffffffff } as const

/** The listener's induction answer carries this in its extension field: "I speak version 5". */
export const SRT_MAGIC = 0x4a17

/** Handshake extensions (type, then its length in 32-bit words). */
export const Extension = { hsReq: 1, hsRsp: 2, kmReq: 3, streamId: 5, congestion: 6, filter: 7, group: 8 } as const

/** The extension field's flag in our conclusion: an HSRSP follows. */
const EXT_FLAG_HS = 1

/** SRT flags of the HSREQ/HSRSP extension. */
export const SrtFlag = {
  tsbpdSend: 0x01,
  tsbpdReceive: 0x02,
  crypt: 0x04,
  tooLateDrop: 0x08,
  nakReport: 0x10,
  rexmitFlag: 0x20,
  stream: 0x40
} as const

/** The SRT version we say we speak in HSRSP (1.5.0). */
const OUR_VERSION = 0x010500

/** Rejection reasons as a handshake type: SRT's own (1000 + n) and access control's (2000 + HTTP-like code). */
export const Rejection = {
  unsecure: 1011,
  messageApi: 1012,
  congestion: 1013,
  filter: 1014,
  group: 1015,
  version: 1008,
  badKey: 2403,
  busy: 2409,
  unavailable: 2503
} as const

const SEQUENCE_SPAN = 0x80000000
const HALF_SPAN = 0x40000000

/** b − a on the 31-bit circle: positive when b comes after a. */
export const sequenceDistance = (a: number, b: number): number => {
  const raw = (b - a + SEQUENCE_SPAN) % SEQUENCE_SPAN
  return raw >= HALF_SPAN ? raw - SEQUENCE_SPAN : raw
}

export const nextSequence = (sequence: number, by = 1): number => (sequence + by + SEQUENCE_SPAN) % SEQUENCE_SPAN

export const isControl = (packet: Buffer): boolean => packet.length >= HEADER && ((packet[0] ?? 0) & 0x80) !== 0
export const controlType = (packet: Buffer): number => packet.readUInt16BE(0) & 0x7fff
export const isHandshake = (packet: Buffer): boolean =>
  isControl(packet) && controlType(packet) === Control.handshake && packet.length >= HANDSHAKE_SIZE
export const handshakeType = (packet: Buffer): number => packet.readUInt32BE(36)

/** A data packet's sequence number. */
export const dataSequence = (packet: Buffer): number => packet.readUInt32BE(0) & 0x7fffffff

/** A control packet of ours: its type, the type-specific word and its body. */
export function controlPacket(type: number, typeSpecific: number, timestamp: number, destination: number, body?: Buffer): Buffer {
  const packet = Buffer.alloc(HEADER + (body?.length ?? 0))
  packet.writeUInt32BE((0x80000000 | (type << 16)) >>> 0, 0)
  packet.writeUInt32BE(typeSpecific >>> 0, 4)
  packet.writeUInt32BE(timestamp >>> 0, 8)
  packet.writeUInt32BE(destination >>> 0, 12)
  body?.copy(packet, HEADER)
  return packet
}

/** The extensions of a conclusion, by type (each its words, as sent). */
export function extensionsOf(packet: Buffer): Map<number, Buffer> | undefined {
  const found = new Map<number, Buffer>()
  let at = HANDSHAKE_SIZE
  while (at + 4 <= packet.length) {
    const type = packet.readUInt16BE(at)
    const words = packet.readUInt16BE(at + 2)
    const end = at + 4 + words * 4
    if (end > packet.length) return undefined
    found.set(type, packet.subarray(at + 4, end))
    at = end
  }
  return found
}

/** Text carried in an extension: each 32-bit word's bytes are in reverse order. */
const wordText = (words: Buffer): string => {
  const text = Buffer.alloc(words.length - (words.length % 4))
  for (let word = 0; word * 4 + 4 <= words.length; word++) text.writeUInt32BE(words.readUInt32LE(word * 4), word * 4)
  return text.toString("utf8").replace(/\0+$/, "")
}

/** The stream id a caller sends in its conclusion. */
export function streamIdOf(packet: Buffer): string | undefined {
  const words = extensionsOf(packet)?.get(Extension.streamId)
  return words === undefined ? undefined : wordText(words)
}

/** What a caller's conclusion asks for. */
export interface CallerRequest {
  readonly socketId: number
  readonly initialSequence: number
  readonly mtu: number
  readonly flowWindow: number
  readonly streamId: string
  /** the caller's SRT flags and latencies (ms) from its HSREQ */
  readonly flags: number
  readonly receiveDelay: number
  readonly sendDelay: number
}

/** Reads a version 5 conclusion; a reason to refuse it otherwise. */
export function readConclusion(packet: Buffer): { readonly request: CallerRequest } | { readonly refuse: number; readonly why: string } {
  if (packet.readUInt32BE(16) < 5) return { refuse: Rejection.version, why: "the caller's SRT is too old to send a stream id" }
  const extensions = extensionsOf(packet)
  const hs = extensions?.get(Extension.hsReq)
  if (extensions === undefined || hs === undefined || hs.length < 12)
    return { refuse: Rejection.version, why: "a handshake without SRT's extension" }
  const flags = hs.readUInt32BE(4)
  if (extensions.has(Extension.kmReq) || packet.readUInt16BE(20) !== 0)
    return { refuse: Rejection.unsecure, why: "the caller encrypts (a passphrase is set); this port takes unencrypted SRT" }
  if ((flags & SrtFlag.stream) !== 0) return { refuse: Rejection.messageApi, why: "the caller uses file mode; live mode is taken" }
  const congestion = extensions.get(Extension.congestion)
  if (congestion !== undefined && wordText(congestion) !== "live")
    return { refuse: Rejection.congestion, why: "the caller asks for a congestion control other than live" }
  if (extensions.has(Extension.filter)) return { refuse: Rejection.filter, why: "packet filters (FEC) are not taken" }
  if (extensions.has(Extension.group)) return { refuse: Rejection.group, why: "socket groups are not taken" }
  const sid = extensions.get(Extension.streamId)
  return {
    request: {
      socketId: packet.readUInt32BE(40),
      initialSequence: packet.readUInt32BE(24) & 0x7fffffff,
      mtu: packet.readUInt32BE(28),
      flowWindow: packet.readUInt32BE(32),
      streamId: sid === undefined ? "" : wordText(sid),
      flags,
      receiveDelay: hs.readUInt16BE(8),
      sendDelay: hs.readUInt16BE(10)
    }
  }
}

/** The listener's answer to a caller's induction: its own fields, version 5 and a cookie. */
export function inductionAnswer(request: Buffer, timestamp: number, cookie: number): Buffer {
  const packet = Buffer.from(request.subarray(0, HANDSHAKE_SIZE))
  packet.writeUInt32BE(timestamp >>> 0, 8)
  packet.writeUInt32BE(request.readUInt32BE(40), 12)
  packet.writeUInt32BE(5, 16)
  packet.writeUInt16BE(0, 20)
  packet.writeUInt16BE(SRT_MAGIC, 22)
  packet.writeUInt32BE(Handshake.induction, 36)
  packet.writeUInt32BE(cookie >>> 0, 44)
  return packet
}

/** A refusal: the caller's handshake back, its type the reason. */
export function refusal(request: Buffer, timestamp: number, reason: number): Buffer {
  const packet = Buffer.from(request.subarray(0, HANDSHAKE_SIZE))
  packet.writeUInt32BE(timestamp >>> 0, 8)
  packet.writeUInt32BE(request.readUInt32BE(40), 12)
  packet.writeUInt32BE(reason >>> 0, 36)
  return packet
}

/** The conclusion that accepts a caller: our socket id and flow window, the agreed latency, in HSRSP. */
export function acceptance(
  request: CallerRequest,
  fields: { readonly timestamp: number; readonly socketId: number; readonly flowWindow: number; readonly latencyMs: number }
): Buffer {
  const packet = Buffer.alloc(HANDSHAKE_SIZE + 4 + 12)
  packet.writeUInt32BE(0x80000000, 0)
  packet.writeUInt32BE(fields.timestamp >>> 0, 8)
  packet.writeUInt32BE(request.socketId >>> 0, 12)
  packet.writeUInt32BE(5, 16)
  packet.writeUInt16BE(0, 20)
  packet.writeUInt16BE(EXT_FLAG_HS, 22)
  packet.writeUInt32BE(request.initialSequence, 24)
  packet.writeUInt32BE(Math.min(request.mtu, 1500), 28)
  packet.writeUInt32BE(fields.flowWindow, 32)
  packet.writeUInt32BE(Handshake.conclusion, 36)
  packet.writeUInt32BE(fields.socketId >>> 0, 40)
  packet.writeUInt32BE(0, 44)
  const at = HANDSHAKE_SIZE
  packet.writeUInt16BE(Extension.hsRsp, at)
  packet.writeUInt16BE(3, at + 2)
  packet.writeUInt32BE(OUR_VERSION, at + 4)
  packet.writeUInt32BE(
    SrtFlag.tsbpdSend | SrtFlag.tsbpdReceive | SrtFlag.crypt | SrtFlag.tooLateDrop | SrtFlag.nakReport | SrtFlag.rexmitFlag,
    at + 8
  )
  // as receiver we wait at least as long as the caller wants to be waited for; as sender the same
  const delay = Math.min(0xffff, Math.max(fields.latencyMs, request.sendDelay, request.receiveDelay))
  packet.writeUInt16BE(delay, at + 12)
  packet.writeUInt16BE(delay, at + 14)
  return packet
}

/** A NAK's loss list: single numbers, or first (top bit set) and last of a range. */
export function lossList(ranges: ReadonlyArray<readonly [number, number]>): Buffer {
  const words: Array<number> = []
  for (const [first, last] of ranges) {
    if (first === last) words.push(first)
    else words.push((first | 0x80000000) >>> 0, last)
  }
  const body = Buffer.alloc(words.length * 4)
  for (const [index, word] of words.entries()) body.writeUInt32BE(word >>> 0, index * 4)
  return body
}
