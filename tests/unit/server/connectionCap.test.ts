import { EventEmitter } from "node:events"
import type { Socket } from "node:net"
import { describe, expect, it } from "vitest"
import { capConnectionsPerAddress } from "../../../src/server/http/connectionLimits.ts"

/** A connection as the server sees it: where it comes from, and whether it was closed. */
const socketFrom = (remoteAddress: string) => {
  const socket = Object.assign(new EventEmitter(), {
    remoteAddress,
    destroyed: false,
    destroy() {
      socket.destroyed = true
      socket.emit("close")
    }
  })
  return socket
}

describe("the cap on connections from one client", () => {
  const connect = (server: EventEmitter, address: string) => {
    const socket = socketFrom(address)
    server.emit("connection", socket as unknown as Socket)
    return socket
  }

  it("counts an IPv6 /64 as one client, however many addresses it uses, and an IPv4 address as one", () => {
    const server = new EventEmitter()
    capConnectionsPerAddress(server, 2)
    const inside = ["2001:db8:1:2::1", "2001:db8:1:2::ab", "2001:db8:1:2:ffff::9"].map((address) => connect(server, address))
    expect(inside.map((socket) => socket.destroyed)).toEqual([false, false, true])
    // another /64 and IPv4 clients have their own places
    expect(connect(server, "2001:db8:1:3::1").destroyed).toBe(false)
    const mapped = [connect(server, "::ffff:192.0.2.7"), connect(server, "192.0.2.7"), connect(server, "192.0.2.7")]
    expect(mapped.map((socket) => socket.destroyed)).toEqual([false, false, true])
    // a closed connection frees its place
    inside[0]?.destroy()
    expect(connect(server, "2001:db8:1:2::77").destroyed).toBe(false)
  })
})
