/**
 * The RTMP port encoders publish to (`rtmp://HOST:1935/live/<key>`): the handshake, the chunk
 * stream, the commands of a publication (connect, createStream, publish) and its audio, video and
 * metadata, which become FLV for the channel's ffmpeg. Only publishing is served; the stream name
 * is the channel's key, checked before anything is taken.
 */
import { randomBytes } from "node:crypto"
import net from "node:net"
import { type Amf0Object, type Amf0Value, decodeAmf0, encodeAmf0 } from "./amf0.ts"
import { FLV_AUDIO, FLV_VIDEO, FlvFeed } from "./flvWriter.ts"
import type { IngestGate, PublishDecision, Publisher } from "./ingestFeed.ts"

const HANDSHAKE_SIZE = 1536
// an encoder says nothing for this long (no handshake, no media): the connection is closed
const IDLE_MS = 15_000
// bounds on what a client may make us hold
const MAX_MESSAGE = 8 * 1024 * 1024
const MAX_CHUNK_SIZE = 16 * 1024 * 1024
const MAX_CHUNK_STREAMS = 64
// messages being put together, all chunk streams of a connection together
const MAX_PENDING = 2 * MAX_MESSAGE
const MAX_CONNECTIONS = 128
const OUR_CHUNK_SIZE = 4096
const WINDOW = 2_500_000

// RTMP's message types
const Message = {
  SetChunkSize: 1,
  Abort: 2,
  Ack: 3,
  WindowAckSize: 5,
  PeerBandwidth: 6,
  Audio: 8,
  Video: 9,
  Amf3Data: 15,
  Amf3Command: 17,
  Data: 18,
  Command: 20
} as const

interface ChunkStream {
  timestamp: number
  delta: number
  length: number
  type: number
  streamId: number
  extended: boolean
  parts: Array<Buffer>
  received: number
}

export interface RtmpServerOptions {
  readonly host: string
  readonly port: number
  readonly gate: IngestGate
  readonly log: (level: "info" | "warn", message: string) => void
}

export interface RtmpServer {
  /** Where it listens (the port chosen, when asked for 0). */
  readonly port: number
  close(): Promise<void>
}

/** Listens for publishers; resolves once it listens. */
export async function startRtmpServer(options: RtmpServerOptions): Promise<RtmpServer> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
    new RtmpSession(socket, options)
  })
  server.maxConnections = MAX_CONNECTIONS
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address()
  return {
    port: typeof address === "object" && address !== null ? address.port : options.port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

const addressOf = (socket: net.Socket): string => (socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "")

/** The stream name an encoder publishes is the key; some put the key in the application's path instead. */
export const keyOf = (app: string, name: string): string => {
  const given = name.split("?", 1)[0]?.trim() ?? ""
  if (given !== "") return given
  return app.split("?", 1)[0]?.split("/").filter(Boolean).at(-1) ?? ""
}

class RtmpSession {
  private readonly socket: net.Socket
  private readonly options: RtmpServerOptions
  private readonly address: string
  private phase: "c0c1" | "c2" | "chunks" | "closed" = "c0c1"
  private buffered: Buffer = Buffer.alloc(0)
  private inChunkSize = 128
  private outChunkSize = 128
  private readonly streams = new Map<number, ChunkStream>()
  private received = 0
  private pending = 0
  private acknowledged = 0
  private ackWindow = 0
  private app = ""
  private publishing: { readonly ended: () => void } | undefined
  private deciding = false
  private readonly flv = new FlvFeed()

  constructor(socket: net.Socket, options: RtmpServerOptions) {
    this.socket = socket
    this.options = options
    this.address = addressOf(socket)
    socket.setNoDelay(true)
    socket.setTimeout(IDLE_MS, () => this.close(`no data for ${IDLE_MS / 1000} s`))
    socket.on("data", (chunk: Buffer) => {
      try {
        this.read(chunk)
      } catch (error) {
        this.close(error instanceof Error ? error.message : String(error))
      }
    })
    socket.on("error", () => undefined)
    socket.once("close", () => this.ended())
  }

  private read(chunk: Buffer): void {
    if (this.phase === "closed") return
    this.received += chunk.length
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk])
    if (this.phase === "c0c1") {
      if (this.buffered.length < 1 + HANDSHAKE_SIZE) return
      if (this.buffered[0] !== 3) throw new Error(`RTMP version ${this.buffered[0]} is not spoken here`)
      const c1 = this.buffered.subarray(1, 1 + HANDSHAKE_SIZE)
      const s1 = Buffer.concat([Buffer.alloc(8), randomBytes(HANDSHAKE_SIZE - 8)])
      s1.writeUInt32BE(Math.floor(performance.now()) >>> 0, 0)
      this.socket.write(Buffer.concat([Buffer.from([3]), s1, c1]))
      this.buffered = this.buffered.subarray(1 + HANDSHAKE_SIZE)
      this.phase = "c2"
    }
    if (this.phase === "c2") {
      if (this.buffered.length < HANDSHAKE_SIZE) return
      this.buffered = this.buffered.subarray(HANDSHAKE_SIZE)
      this.phase = "chunks"
    }
    while (this.phase === "chunks" && this.chunk()) {
      // each complete chunk is taken in turn
    }
    if (this.ackWindow > 0 && this.received - this.acknowledged >= this.ackWindow) {
      this.acknowledged = this.received
      this.send(2, Message.Ack, 0, u32(this.received >>> 0))
    }
  }

  /** Reads one chunk when all of it is here; false when more bytes are needed. */
  private chunk(): boolean {
    const bytes = this.buffered
    if (bytes.length < 1) return false
    const first = bytes[0] ?? 0
    const format = first >> 6
    let id = first & 0x3f
    let at = 1
    if (id === 0) {
      if (bytes.length < 2) return false
      id = (bytes[1] ?? 0) + 64
      at = 2
    } else if (id === 1) {
      if (bytes.length < 3) return false
      id = (bytes[2] ?? 0) * 256 + (bytes[1] ?? 0) + 64
      at = 3
    }
    let stream = this.streams.get(id)
    if (stream === undefined) {
      if (format !== 0) throw new Error(`chunk stream ${id} starts without its full header`)
      if (this.streams.size >= MAX_CHUNK_STREAMS) throw new Error("too many chunk streams")
      stream = { timestamp: 0, delta: 0, length: 0, type: 0, streamId: 0, extended: false, parts: [], received: 0 }
    }
    const headerSize = [11, 7, 3, 0][format] ?? 0
    if (bytes.length < at + headerSize) return false
    let field = stream.extended ? 0xffffff : 0
    let { length, type, streamId } = stream
    if (format <= 2) field = bytes.readUIntBE(at, 3)
    if (format <= 1) {
      length = bytes.readUIntBE(at + 3, 3)
      type = bytes[at + 6] ?? 0
    }
    if (format === 0) streamId = bytes.readUInt32LE(at + 7)
    at += headerSize
    const extended = format <= 2 ? field === 0xffffff : stream.extended
    if (extended) {
      if (bytes.length < at + 4) return false
      field = bytes.readUInt32BE(at)
      at += 4
    }
    if (length > MAX_MESSAGE) throw new Error(`a message of ${length} bytes is more than is taken`)
    const starting = stream.received === 0
    const size = Math.min(this.inChunkSize, (starting ? length : stream.length) - stream.received)
    if (bytes.length < at + size) return false
    // the header is whole: it is applied
    this.streams.set(id, stream)
    stream.extended = extended
    if (format === 0) {
      stream.timestamp = field
      stream.delta = field
    } else if (format <= 2) {
      stream.delta = field
      if (starting) stream.timestamp = (stream.timestamp + field) >>> 0
    } else if (starting) stream.timestamp = (stream.timestamp + stream.delta) >>> 0
    if (starting) {
      stream.length = length
      stream.type = type
      stream.streamId = streamId
    }
    stream.parts.push(bytes.subarray(at, at + size))
    stream.received += size
    this.pending += size
    if (this.pending > MAX_PENDING) throw new Error("more unfinished messages than are taken")
    this.buffered = bytes.subarray(at + size)
    if (stream.received >= stream.length) {
      const payload = Buffer.concat(stream.parts)
      this.pending -= stream.received
      stream.parts = []
      stream.received = 0
      this.message(stream.type, stream.streamId, stream.timestamp, payload)
    }
    return true
  }

  private message(type: number, streamId: number, timestamp: number, payload: Buffer): void {
    switch (type) {
      case Message.SetChunkSize: {
        const size = (payload.length >= 4 ? payload.readUInt32BE(0) : 0) & 0x7fffffff
        if (size < 1 || size > MAX_CHUNK_SIZE) throw new Error(`chunk size ${size} is not taken`)
        this.inChunkSize = size
        return
      }
      case Message.Abort: {
        const stream = this.streams.get(payload.length >= 4 ? payload.readUInt32BE(0) : -1)
        if (stream !== undefined) {
          this.pending -= stream.received
          stream.parts = []
          stream.received = 0
        }
        return
      }
      case Message.WindowAckSize:
        this.ackWindow = payload.length >= 4 ? payload.readUInt32BE(0) : 0
        return
      case Message.Command:
      case Message.Amf3Command:
        this.command(streamId, decodeAmf0(type === Message.Amf3Command ? payload.subarray(1) : payload))
        return
      case Message.Data:
      case Message.Amf3Data:
        this.data(type === Message.Amf3Data ? payload.subarray(1) : payload)
        return
      case Message.Audio:
        if (this.publishing !== undefined) this.flv.media(FLV_AUDIO, timestamp, payload)
        return
      case Message.Video:
        if (this.publishing !== undefined) this.flv.media(FLV_VIDEO, timestamp, payload)
        return
      default:
      // acknowledgements, user control (pings) and the peer's bandwidth need nothing from a server that only takes
    }
  }

  private command(streamId: number, values: Array<Amf0Value>): void {
    const [name, transaction = 0, , ...args] = values
    const txn = typeof transaction === "number" ? transaction : 0
    switch (name) {
      case "connect": {
        const command = (values[2] ?? {}) as Amf0Object
        this.app = typeof command.app === "string" ? command.app : ""
        this.send(2, Message.WindowAckSize, 0, u32(WINDOW))
        this.send(2, Message.PeerBandwidth, 0, Buffer.concat([u32(WINDOW), Buffer.from([2])]))
        this.send(2, Message.SetChunkSize, 0, u32(OUR_CHUNK_SIZE))
        this.outChunkSize = OUR_CHUNK_SIZE
        this.reply(
          3,
          0,
          "_result",
          txn,
          { fmsVer: "FMS/3,0,1,123", capabilities: 31 },
          { level: "status", code: "NetConnection.Connect.Success", description: "Connection succeeded.", objectEncoding: 0 }
        )
        return
      }
      case "createStream":
        this.reply(3, 0, "_result", txn, null, 1)
        return
      case "releaseStream":
      case "FCPublish":
      case "getStreamLength":
        if (txn > 0) this.reply(3, 0, "_result", txn, null, undefined)
        return
      case "publish":
        void this.publish(streamId || 1, typeof args[0] === "string" ? args[0] : "")
        return
      case "play":
        this.status(streamId || 1, "error", "NetStream.Play.Failed", "This server only takes publishers.")
        this.close("asked to play; only publishing is served")
        return
      case "FCUnpublish":
      case "deleteStream":
      case "closeStream":
        if (this.publishing !== undefined) this.close("the publisher ended its publication", "info")
        return
      default:
      // other calls (checkBandwidth, _checkbw, …) are left unanswered, as servers commonly do
    }
  }

  private data(payload: Buffer): void {
    if (this.publishing === undefined) return
    const values = decodeAmf0(payload)
    // `@setDataFrame onMetaData {…}`: FLV keeps it as `onMetaData {…}`
    const start = values[0] === "@setDataFrame" ? 1 : 0
    if (values[start] !== "onMetaData") return
    const metadata = (values[start + 1] ?? {}) as Amf0Object
    this.flv.metadataOf(encodeAmf0("onMetaData", metadata), {
      audio: metadata.audiocodecid !== undefined,
      video: metadata.videocodecid !== undefined
    })
  }

  private async publish(streamId: number, name: string): Promise<void> {
    if (this.publishing !== undefined || this.deciding) return
    this.deciding = true
    const key = keyOf(this.app, name)
    const flv = this.flv
    const publisher: Publisher = {
      protocol: "RTMP",
      address: this.address,
      input: () => ({ args: ["-f", "flv", "-i", "pipe:0"], stdin: true }),
      attach: (child) => {
        if (child.stdin !== null) flv.attach(child.stdin)
      },
      detach: () => flv.detach(),
      close: (reason) => {
        this.status(streamId, "status", "NetStream.Unpublish.Success", `The channel let the publisher go: ${reason}.`)
        this.close(`let go: ${reason}`, "info")
      }
    }
    let decision: PublishDecision
    try {
      decision = await this.options.gate(key, publisher)
    } catch (error) {
      decision = { accepted: false, reason: "unavailable", description: error instanceof Error ? error.message : String(error) }
    }
    this.deciding = false
    if (this.phase === "closed") {
      if (decision.accepted) decision.ended()
      return
    }
    if (!decision.accepted) {
      const code = decision.reason === "badKey" ? "NetStream.Publish.BadName" : "NetStream.Publish.Denied"
      this.status(streamId, "error", code, decision.description)
      this.close(`publisher refused: ${decision.description}`)
      return
    }
    this.publishing = { ended: decision.ended }
    this.status(streamId, "status", "NetStream.Publish.Start", "Publishing.")
  }

  private status(streamId: number, level: string, code: string, description: string): void {
    this.reply(5, streamId, "onStatus", 0, null, { level, code, description })
  }

  private reply(chunkStream: number, streamId: number, ...values: ReadonlyArray<Amf0Value>): void {
    this.send(chunkStream, Message.Command, streamId, encodeAmf0(...values))
  }

  /** One message, in chunks of our size, the first with the full header. */
  private send(chunkStream: number, type: number, streamId: number, payload: Buffer): void {
    if (this.phase === "closed" || this.socket.destroyed) return
    const header = Buffer.alloc(12)
    header[0] = chunkStream & 0x3f
    header.writeUIntBE(payload.length, 4, 3)
    header[7] = type
    header.writeUInt32LE(streamId, 8)
    const parts: Array<Buffer> = [header]
    for (let at = 0; at < payload.length; at += this.outChunkSize) {
      if (at > 0) parts.push(Buffer.from([0xc0 | (chunkStream & 0x3f)]))
      parts.push(payload.subarray(at, at + this.outChunkSize))
    }
    this.socket.write(Buffer.concat(parts))
  }

  private close(reason: string, level: "info" | "warn" = "warn"): void {
    if (this.phase === "closed") return
    this.phase = "closed"
    this.options.log(level, `rtmp ${this.address}: ${reason}`)
    this.socket.end()
    setTimeout(() => this.socket.destroy(), 1000).unref()
    this.ended()
  }

  private ended(): void {
    this.phase = "closed"
    const publishing = this.publishing
    this.publishing = undefined
    this.flv.end()
    publishing?.ended()
  }
}

const u32 = (value: number): Buffer => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(value >>> 0)
  return bytes
}
