import type { Socket } from "node:net"
import { ResultCode } from "../../domain/ResultCode.ts"
import { networkOf } from "./clientNetwork.ts"
import { failureBody } from "./HttpFailure.ts"

// Read from the module itself, not imported: importing node:http as an ES module makes Node
// resolve every one of its exports, WebSocket's among them, which loads its whole fetch client
// (undici) at start-up for nothing.
const { STATUS_CODES } = process.getBuiltinModule("node:http")

/**
 * How long a client may take, in ms. A request must arrive whole (headers and body) within
 * `requestTimeoutMs`, its headers within `headersTimeoutMs` (a connection that sends nothing at all
 * is closed then too); a connection with nothing moving for `idleTimeoutMs` is closed. Answers are not bounded: a player reading a long segment keeps going.
 */
export const CLIENT_TIMEOUTS = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 10_000
} as const

/**
 * Closes a connection that has sent nothing within `ms` of opening. Node times out a request's
 * headers only once they start to arrive, and a socket's idleness only once it has been used, so a
 * socket opened and left silent would otherwise stay open for good.
 */
export function closeSilentConnections(server: { on(event: "connection", listener: (socket: Socket) => void): unknown }, ms: number): void {
  server.on("connection", (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy()
    }, ms)
    timer.unref()
    socket.once("close", () => clearTimeout(timer))
  })
}

/**
 * Closes connections past `max` open ones from one client network at once (an IPv4 address, an
 * IPv6 /64, which one host can fill with addresses of its own), before they are read, so one host
 * cannot hold every socket the server has. Off behind a proxy, which carries everyone.
 */
export function capConnectionsPerAddress(
  server: { on(event: "connection", listener: (socket: Socket) => void): unknown },
  max: number
): void {
  const open = new Map<string, number>()
  server.on("connection", (socket: Socket) => {
    const address = networkOf(socket.remoteAddress ?? "unknown")
    const count = (open.get(address) ?? 0) + 1
    if (count > max) {
      socket.destroy()
      return
    }
    open.set(address, count)
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1
      if (left <= 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

const CLIENT_ERRORS: Record<string, { status: number; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: "The request took too long to arrive" },
  HPE_HEADER_OVERFLOW: { status: 431, detail: "Request headers are too large" }
}

/**
 * For Fastify's `clientErrorHandler`: a request Node cannot parse (bytes after a complete
 * request, a malformed header, a request too slow to arrive) is answered with the contract's
 * failure body and our security headers, then the connection is closed. It is the client's
 * mistake, so nothing is logged above debug.
 */
export function clientErrorReply(headers: Readonly<Record<string, string>>) {
  return function (this: unknown, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === "ECONNRESET" || socket.destroyed) return
    const known = error.code === undefined ? undefined : CLIENT_ERRORS[error.code]
    const status = known?.status ?? 400
    const body = JSON.stringify(
      failureBody(status, known?.detail ?? "Malformed request", status === 400 ? ResultCode.INVALID_INPUT : undefined)
    )
    ;(this as { log?: { debug(object: unknown, message: string): void } }).log?.debug({ err: error }, "unreadable request")
    if (socket.writable) {
      const lines = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
        ...Object.entries({ ...headers, "cache-control": "no-store" }).map(([name, value]) => `${name}: ${value}`),
        "content-type: application/json; charset=utf-8",
        `content-length: ${Buffer.byteLength(body)}`,
        "connection: close"
      ]
      socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`)
    }
    socket.destroy()
  }
}
