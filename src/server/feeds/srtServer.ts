/**
 * The SRT port encoders publish to (`srt://HOST:9000?streamid=<key>`), one UDP port for every
 * ingest channel. It takes the caller's handshake itself, reads the stream id, checks the key and
 * answers with SRT's own refusal codes (which the encoder shows) or accepts; then it is the
 * receiving end of the connection (see SrtReceiver) and writes the MPEG-TS it receives to the
 * channel's ffmpeg, on its standard input, as the RTMP port writes FLV.
 */
import { createHmac, randomBytes } from "node:crypto"
import dgram from "node:dgram"
import type { Writable } from "node:stream"
import type { IngestGate, PublishDecision, Publisher } from "./ingestFeed.ts"
import {
  acceptance,
  type CallerRequest,
  Control,
  controlPacket,
  Handshake,
  handshakeType,
  inductionAnswer,
  isControl,
  isHandshake,
  readConclusion,
  refusal
} from "./srtPackets.ts"
import { FLOW_WINDOW, SrtReceiver } from "./srtReceiver.ts"

const REFUSED = { badKey: 2403, busy: 2409, unavailable: 2503 } as const
// a caller silent this long is gone (SRT's own peer timeout is 5 s)
const SILENT_MS = 10_000
const MAX_SESSIONS = 256
/** the latency we ask for at least (SRT's default), ms */
const LATENCY_MS = 120
/** housekeeping (silence, keepalives, what a pause leaves behind) while callers are connected */
const TICK_MS = 250
/** ffmpeg this far behind on its input (it hangs): what comes is dropped until it catches up or is restarted */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024

interface Caller {
  readonly address: string
  readonly port: number
  readonly request: CallerRequest
  /** its conclusion, for a refusal */
  readonly conclusion: Buffer
  readonly socketId: number
  state: "deciding" | "open" | "closed"
  heardAt: number
  accepted: Buffer | undefined
  receiver: SrtReceiver | undefined
  /** the channel's ffmpeg's standard input, while one runs */
  output: Writable | undefined
  ended: (() => void) | undefined
}

export interface SrtServerOptions {
  readonly host: string
  readonly port: number
  readonly gate: IngestGate
  readonly log: (level: "info" | "warn", message: string) => void
}

export interface SrtServer {
  readonly port: number
  close(): Promise<void>
}

export async function startSrtServer(options: SrtServerOptions): Promise<SrtServer> {
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

  let ticker: NodeJS.Timeout | undefined
  const tick = (): void => {
    const at = performance.now()
    for (const caller of callers.values()) {
      if (at - caller.heardAt > SILENT_MS) end(caller, `silent for ${SILENT_MS / 1000} s`, "warn")
      else caller.receiver?.tick(at)
    }
    if (callers.size === 0) {
      clearInterval(ticker)
      ticker = undefined
    }
  }
  const ticking = (): void => {
    ticker ??= setInterval(tick, TICK_MS)
  }

  const end = (caller: Caller, reason: string, level: "info" | "warn" = "info", told = false): void => {
    if (caller.state === "closed") return
    const wasOpen = caller.state === "open"
    caller.state = "closed"
    callers.delete(keyOf(caller.address, caller.port))
    if (wasOpen && !told)
      send(controlPacket(Control.shutdown, 0, timestamp(), caller.request.socketId, Buffer.alloc(4)), caller.address, caller.port)
    caller.receiver?.flush()
    log(level, `srt ${caller.address}: ${reason}`)
    // the channel learns its publisher left before its ffmpeg sees the end of its input
    caller.ended?.()
    caller.output?.end()
    caller.output = undefined
  }

  const write = (caller: Caller, bytes: Buffer): void => {
    const output = caller.output
    if (output === undefined || output.destroyed || output.writableLength > MAX_QUEUED_BYTES) return
    output.write(bytes)
  }

  const decide = async (caller: Caller): Promise<void> => {
    let decision: PublishDecision
    try {
      const publisher: Publisher = {
        protocol: "SRT",
        address: caller.address,
        input: () => ({
          // encoders send a keyframe every second or two: two seconds tell ffmpeg what the streams are
          args: ["-f", "mpegts", "-analyzeduration", "2000000", "-i", "pipe:0"],
          stdin: true
        }),
        attach: (child) => {
          caller.output = child.stdin ?? undefined
        },
        detach: (child) => {
          if (caller.output === child.stdin) caller.output = undefined
        },
        close: (reason) => end(caller, `let go: ${reason}`)
      }
      decision = await gate(caller.request.streamId, publisher)
    } catch (error) {
      decision = { accepted: false, reason: "unavailable", description: error instanceof Error ? error.message : String(error) }
    }
    if (caller.state === "closed") {
      if (decision.accepted) decision.ended()
      return
    }
    if (!decision.accepted) {
      callers.delete(keyOf(caller.address, caller.port))
      caller.state = "closed"
      send(refusal(caller.conclusion, timestamp(), REFUSED[decision.reason]), caller.address, caller.port)
      log("warn", `srt ${caller.address}: publisher refused: ${decision.description}`)
      return
    }
    caller.ended = decision.ended
    const at = performance.now()
    caller.receiver = new SrtReceiver(
      {
        initialSequence: caller.request.initialSequence,
        latencyMs: Math.max(LATENCY_MS, caller.request.sendDelay),
        peer: caller.request.socketId,
        timestamp,
        send: (packet) => send(packet, caller.address, caller.port),
        deliver: (bytes) => write(caller, bytes)
      },
      at
    )
    caller.accepted = acceptance(caller.request, {
      timestamp: timestamp(),
      socketId: caller.socketId,
      flowWindow: FLOW_WINDOW,
      latencyMs: LATENCY_MS
    })
    caller.state = "open"
    caller.heardAt = at
    send(caller.accepted, caller.address, caller.port)
    ticking()
  }

  const handshake = (packet: Buffer, address: string, port: number): void => {
    const type = handshakeType(packet)
    if (type === Handshake.induction) {
      send(inductionAnswer(packet, timestamp(), cookie(address, port, minuteNow())), address, port)
      return
    }
    if (type !== Handshake.conclusion) return
    const minute = minuteNow()
    const given = packet.readUInt32BE(44)
    if (given !== cookie(address, port, minute) && given !== cookie(address, port, minute - 1)) return
    const read = readConclusion(packet)
    if ("refuse" in read || callers.size >= MAX_SESSIONS) {
      send(refusal(packet, timestamp(), "refuse" in read ? read.refuse : REFUSED.unavailable), address, port)
      log("warn", `srt ${address}: publisher refused: ${"refuse" in read ? read.why : "too many SRT connections"}`)
      return
    }
    const caller: Caller = {
      address,
      port,
      request: read.request,
      conclusion: Buffer.from(packet),
      socketId: randomBytes(4).readUInt32BE(0) & 0x7fffffff || 1,
      state: "deciding",
      heardAt: performance.now(),
      accepted: undefined,
      receiver: undefined,
      output: undefined,
      ended: undefined
    }
    callers.set(keyOf(address, port), caller)
    ticking()
    void decide(caller)
  }

  socket.on("message", (packet, from) => {
    const caller = callers.get(keyOf(from.address, from.port))
    if (caller === undefined) {
      if (isHandshake(packet)) handshake(packet, from.address, from.port)
      return
    }
    const at = performance.now()
    caller.heardAt = at
    const receiver = caller.receiver
    if (receiver === undefined) return
    if (!isControl(packet)) receiver.data(packet, at)
    else if (isHandshake(packet)) {
      // our acceptance was lost: the caller says its conclusion again
      if (handshakeType(packet) === Handshake.conclusion && caller.accepted !== undefined)
        send(caller.accepted, caller.address, caller.port)
    } else if (receiver.control(packet, at)) end(caller, "the publication ended", "info", true)
  })
  socket.on("error", (error) => log("warn", `srt: ${error.message}`))

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
        clearInterval(ticker)
        ticker = undefined
        for (const caller of [...callers.values()]) end(caller, "the server stops")
        socket.close(() => resolve())
      })
  }
}
