/**
 * The SRT port encoders publish to (`srt://HOST:9000?streamid=<key>`). SRT itself (retransmission,
 * timing, congestion) is left to Debian's ffmpeg and its libsrt; what this port adds is the key:
 * it answers the first half of each caller's handshake itself, reads the stream id the caller
 * sends in the second, checks it, and only then hands the caller to an ffmpeg listening on
 * loopback for that channel, relaying every datagram between the two from then on. A caller with a
 * wrong key is refused in the handshake, as SRT refuses, with a reason its encoder shows.
 */
import { createHmac, randomBytes } from "node:crypto"
import dgram from "node:dgram"
import type { IngestGate, PublishDecision, Publisher } from "./ingestFeed.ts"

const HEADER = 16
const HANDSHAKE_SIZE = HEADER + 48
const INDUCTION = 1
const CONCLUSION = 0xffffffff
const SRT_MAGIC = 0x4a17
const EXTENSION_SID = 5
// refusal reasons a caller's libsrt reports (SRT's access control codes), sent as 1000 + code
const REFUSED = { badKey: 1403, busy: 1409, unavailable: 1503 } as const
// a caller silent this long is gone (its ffmpeg would have noticed too)
const SILENT_MS = 10_000
const BACKEND_WAIT_MS = 5000
const MAX_SESSIONS = 256

/** Control packets: the first bit set, then the type. */
const isControl = (packet: Buffer): boolean => packet.length >= HEADER && ((packet[0] ?? 0) & 0x80) !== 0
const controlType = (packet: Buffer): number => packet.readUInt16BE(0) & 0x7fff
const isHandshake = (packet: Buffer): boolean => isControl(packet) && controlType(packet) === 0 && packet.length >= HANDSHAKE_SIZE
const handshakeType = (packet: Buffer): number => packet.readUInt32BE(36)

/** The stream id a caller sends in its conclusion: each 32-bit word's bytes are in reverse order. */
export function streamIdOf(packet: Buffer): string | undefined {
  let at = HANDSHAKE_SIZE
  while (at + 4 <= packet.length) {
    const type = packet.readUInt16BE(at)
    const words = packet.readUInt16BE(at + 2)
    const end = at + 4 + words * 4
    if (end > packet.length) return undefined
    if (type === EXTENSION_SID) {
      const text = Buffer.alloc(words * 4)
      for (let word = 0; word < words; word++) text.writeUInt32BE(packet.readUInt32LE(at + 4 + word * 4), word * 4)
      return text.toString("utf8").replace(/\0+$/, "")
    }
    at = end
  }
  return undefined
}

interface Caller {
  readonly address: string
  readonly port: number
  readonly socketId: number
  state: "deciding" | "connecting" | "open" | "closed"
  conclusion: Buffer
  heardAt: number
  backend: dgram.Socket | undefined
  backendPort: number
  ended: (() => void) | undefined
  retry: NodeJS.Timeout | undefined
}

export interface SrtProxyOptions {
  readonly host: string
  readonly port: number
  readonly gate: IngestGate
  readonly log: (level: "info" | "warn", message: string) => void
}

export interface SrtProxy {
  readonly port: number
  close(): Promise<void>
}

/** Where the channel's ffmpeg waits for the one caller handed to it. */
const listenerUrl = (port: number): string => `srt://127.0.0.1:${port}?mode=listener&listen_timeout=${BACKEND_WAIT_MS * 1000}`

/** A free UDP port on loopback, for the ffmpeg that takes one caller. */
const freeLoopbackPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = dgram.createSocket("udp4")
    socket.once("error", reject)
    socket.bind(0, "127.0.0.1", () => {
      const { port } = socket.address()
      socket.close(() => resolve(port))
    })
  })

export async function startSrtProxy(options: SrtProxyOptions): Promise<SrtProxy> {
  const { gate, log } = options
  const socket = dgram.createSocket({ type: options.host.includes(":") ? "udp6" : "udp4" })
  const callers = new Map<string, Caller>()
  const secret = randomBytes(32)
  const started = performance.now()

  const keyOf = (address: string, port: number): string => `${address}|${port}`
  /** The cookie a caller must bring back: tied to its address and to the minute. */
  const cookie = (address: string, port: number, minute: number): number =>
    createHmac("sha256", secret).update(`${address} ${port} ${minute}`).digest().readUInt32BE(0)
  const minuteNow = (): number => Math.floor(Date.now() / 60_000)
  const timestamp = (): number => Math.floor((performance.now() - started) * 1000) >>> 0

  const send = (packet: Buffer, address: string, port: number): void => {
    socket.send(packet, port, address, () => undefined)
  }

  /** A handshake of ours to the caller: its request's fields, with ours where given. */
  const answer = (
    request: Buffer,
    fields: { readonly versionAndFlags?: readonly [number, number]; readonly type: number; readonly cookie?: number }
  ): Buffer => {
    const packet = Buffer.from(request.subarray(0, HANDSHAKE_SIZE))
    const callerId = request.readUInt32BE(40)
    packet.writeUInt32BE(timestamp(), 8)
    packet.writeUInt32BE(callerId, 12)
    if (fields.versionAndFlags !== undefined) {
      packet.writeUInt32BE(fields.versionAndFlags[0], 16)
      packet.writeUInt32BE(fields.versionAndFlags[1], 20)
    }
    packet.writeUInt32BE(fields.type >>> 0, 36)
    if (fields.cookie !== undefined) packet.writeUInt32BE(fields.cookie >>> 0, 44)
    return packet
  }

  const refuse = (request: Buffer, address: string, port: number, reason: keyof typeof REFUSED): void => {
    send(answer(request, { type: 1000 + REFUSED[reason] }), address, port)
  }

  /** Tells the caller the connection is over (SRT's shutdown). */
  const shutdown = (caller: Caller): void => {
    const packet = Buffer.alloc(HEADER + 4)
    packet.writeUInt32BE(0x80050000, 0)
    packet.writeUInt32BE(timestamp(), 8)
    packet.writeUInt32BE(caller.socketId, 12)
    send(packet, caller.address, caller.port)
  }

  const end = (caller: Caller, reason: string, level: "info" | "warn" = "info"): void => {
    if (caller.state === "closed") return
    const wasOpen = caller.state === "open"
    caller.state = "closed"
    clearInterval(caller.retry)
    if (wasOpen || caller.backend !== undefined) shutdown(caller)
    caller.backend?.close()
    caller.backend = undefined
    callers.delete(keyOf(caller.address, caller.port))
    log(level, `srt ${caller.address}: ${reason}`)
    caller.ended?.()
  }

  /** The channel's ffmpeg listens: our own handshake with it, then the caller's conclusion, then everything. */
  const connectBackend = (caller: Caller): void => {
    if (caller.state !== "deciding") return
    caller.state = "connecting"
    const backend = dgram.createSocket("udp4")
    caller.backend = backend
    backend.on("error", () => undefined)
    let cookieOfBackend: number | undefined
    const induction = Buffer.from(caller.conclusion.subarray(0, HANDSHAKE_SIZE))
    induction.writeUInt32BE(0, 12)
    induction.writeUInt32BE(4, 16)
    induction.writeUInt32BE(2, 20)
    induction.writeUInt32BE(INDUCTION, 36)
    induction.writeUInt32BE(0, 44)
    const deadline = performance.now() + BACKEND_WAIT_MS
    backend.on("message", (packet) => {
      if (caller.state === "closed") return
      if (cookieOfBackend === undefined && isHandshake(packet) && handshakeType(packet) === INDUCTION) {
        cookieOfBackend = packet.readUInt32BE(44)
        const conclusion = Buffer.from(caller.conclusion)
        conclusion.writeUInt32BE(cookieOfBackend, 44)
        backend.send(conclusion, caller.backendPort, "127.0.0.1")
        return
      }
      if (caller.state === "connecting" && isHandshake(packet) && handshakeType(packet) === CONCLUSION) {
        caller.state = "open"
        clearInterval(caller.retry)
      }
      send(packet, caller.address, caller.port)
    })
    backend.bind(0, "127.0.0.1", () => {
      const knock = (): void => {
        if (cookieOfBackend !== undefined || caller.state !== "connecting") clearInterval(caller.retry)
        else if (performance.now() > deadline) end(caller, "the channel's ffmpeg did not take the caller in time", "warn")
        else backend.send(induction, caller.backendPort, "127.0.0.1")
      }
      caller.retry = setInterval(knock, 100)
      knock()
    })
  }

  const decide = async (caller: Caller, key: string): Promise<void> => {
    let decision: PublishDecision
    try {
      caller.backendPort = await freeLoopbackPort()
      const publisher: Publisher = {
        protocol: "SRT",
        address: caller.address,
        input: () => ({
          // encoders send a keyframe every second or two: two seconds tell ffmpeg what the streams are
          args: ["-f", "mpegts", "-analyzeduration", "2000000", "-i", listenerUrl(caller.backendPort)],
          stdin: false
        }),
        attach: () => connectBackend(caller),
        detach: () => end(caller, "the publication ended"),
        close: (reason) => end(caller, `let go: ${reason}`)
      }
      decision = await gate(key, publisher)
    } catch (error) {
      decision = { accepted: false, reason: "unavailable", description: error instanceof Error ? error.message : String(error) }
    }
    if (!decision.accepted) {
      callers.delete(keyOf(caller.address, caller.port))
      caller.state = "closed"
      refuse(caller.conclusion, caller.address, caller.port, decision.reason)
      log("warn", `srt ${caller.address}: publisher refused: ${decision.description}`)
      return
    }
    caller.ended = decision.ended
    if (caller.state === "closed") decision.ended()
  }

  const handshake = (packet: Buffer, address: string, port: number): void => {
    const type = handshakeType(packet)
    if (type === INDUCTION) {
      send(answer(packet, { versionAndFlags: [5, SRT_MAGIC], type: INDUCTION, cookie: cookie(address, port, minuteNow()) }), address, port)
      return
    }
    if (type !== CONCLUSION) return
    const minute = minuteNow()
    const given = packet.readUInt32BE(44)
    if (given !== cookie(address, port, minute) && given !== cookie(address, port, minute - 1)) return
    // a caller without SRT's version 5 handshake cannot say its stream id
    if (packet.readUInt32BE(16) < 5 || callers.size >= MAX_SESSIONS) {
      refuse(packet, address, port, "unavailable")
      return
    }
    const key = streamIdOf(packet) ?? ""
    const caller: Caller = {
      address,
      port,
      socketId: packet.readUInt32BE(40),
      state: "deciding",
      conclusion: Buffer.from(packet),
      heardAt: performance.now(),
      backend: undefined,
      backendPort: 0,
      ended: undefined,
      retry: undefined
    }
    callers.set(keyOf(address, port), caller)
    void decide(caller, key)
  }

  socket.on("message", (packet, from) => {
    const caller = callers.get(keyOf(from.address, from.port))
    if (caller !== undefined) {
      caller.heardAt = performance.now()
      // the caller says its conclusion again while we decide: the first is enough
      if (caller.state === "open" || (caller.state === "connecting" && !isHandshake(packet)))
        caller.backend?.send(packet, caller.backendPort, "127.0.0.1")
      else if (caller.state === "connecting") caller.conclusion = Buffer.from(packet)
      return
    }
    if (isHandshake(packet)) handshake(packet, from.address, from.port)
  })
  socket.on("error", (error) => log("warn", `srt: ${error.message}`))

  const sweep = setInterval(() => {
    const at = performance.now()
    for (const caller of callers.values()) if (at - caller.heardAt > SILENT_MS) end(caller, `silent for ${SILENT_MS / 1000} s`, "warn")
  }, 1000)
  sweep.unref()

  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject)
    socket.bind(options.port, options.host, () => {
      socket.off("error", reject)
      resolve()
    })
  })
  return {
    port: socket.address().port,
    close: () =>
      new Promise((resolve) => {
        clearInterval(sweep)
        for (const caller of [...callers.values()]) end(caller, "the server stops")
        socket.close(() => resolve())
      })
  }
}
