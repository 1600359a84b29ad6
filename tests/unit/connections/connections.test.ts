import { describe, expect, it } from "vitest"
import {
  accountsStreaming,
  accountsWithMultipleConnections,
  connectionRows,
  connectionSeverity,
  playerAppOf,
  totalConnections
} from "../../../src/domain/Connection.ts"
import type { ConnectionEntry, ConnectionsInfo } from "../../../src/domain/Reports.ts"

const entry = (ip: string, token: string, timestamp = "2026-01-15T12:00:00.000Z", app = "tv"): ConnectionEntry => ({
  timestamp,
  app,
  ip,
  token
})

const info: ConnectionsInfo = {
  connections: {
    "sharer@example.com": [
      entry("10.0.0.1", "aaa", "2026-01-15T12:01:00.000Z"),
      entry("10.0.0.2", "bbb", "2026-01-15T11:59:00.000Z", "lls")
    ],
    "two-tabs@example.com": [entry("10.0.0.3", "ccc"), entry("10.0.0.3", "ccc", "2026-01-15T12:02:00.000Z", "lls")],
    "roaming@example.com": [entry("10.0.0.4", "ddd"), entry("10.0.0.5", "ddd")],
    "single@example.com": [entry("10.0.0.6", "eee")],
    "gone@example.com": []
  },
  unknownIps: []
}

describe("live connections for staff", () => {
  it("counts connections and accounts streaming", () => {
    expect(totalConnections(info)).toBe(7)
    expect(accountsStreaming(info)).toBe(4)
    expect(totalConnections({ connections: {}, unknownIps: ["1.2.3.4"] })).toBe(0)
  })

  it("lists only accounts with both a different IP and a different token as multiple connections", () => {
    expect(accountsWithMultipleConnections(info)).toEqual([{ email: "sharer@example.com", connections: 2 }])
    const more: ConnectionsInfo = {
      connections: {
        ...info.connections,
        "b@example.com": [entry("1", "x"), entry("2", "y"), entry("3", "z")],
        "a@example.com": [entry("1", "x"), entry("2", "y")]
      },
      unknownIps: []
    }
    expect(accountsWithMultipleConnections(more).map((a) => a.email)).toEqual(["b@example.com", "a@example.com", "sharer@example.com"])
  })

  it("colours rows strongly for multiple IPs and tokens, lightly for more than one connection", () => {
    expect(connectionSeverity(info.connections["sharer@example.com"] ?? [])).toBe("strong")
    expect(connectionSeverity(info.connections["two-tabs@example.com"] ?? [])).toBe("light")
    expect(connectionSeverity(info.connections["roaming@example.com"] ?? [])).toBe("light")
    expect(connectionSeverity(info.connections["single@example.com"] ?? [])).toBe("none")
    // A different IP and a different token in separate pairs still means two devices in two places.
    expect(connectionSeverity([entry("1", "x"), entry("2", "x"), entry("1", "y")])).toBe("strong")
  })

  it("flattens the rows oldest first with their account and severity", () => {
    const rows = connectionRows(info)
    expect(rows).toHaveLength(7)
    expect(rows[0]).toEqual({
      ...entry("10.0.0.2", "bbb", "2026-01-15T11:59:00.000Z", "lls"),
      email: "sharer@example.com",
      severity: "strong"
    })
    expect(rows.at(-1)).toMatchObject({ email: "two-tabs@example.com", timestamp: "2026-01-15T12:02:00.000Z", severity: "light" })
  })

  it("takes the counters, the shared accounts and the row colours from a one-page answer, which holds only some rows", () => {
    const page: ConnectionsInfo = {
      // the page holds one of the sharer's rows; the server saw both
      connections: { "sharer@example.com": [{ ...entry("10.0.0.1", "aaa"), severity: "strong" }] },
      unknownIps: [],
      page: { number: 2, size: 50, rows: 120 },
      accounts: 40,
      multiple: [{ email: "sharer@example.com", connections: 2 }]
    }
    expect(totalConnections(page)).toBe(120)
    expect(accountsStreaming(page)).toBe(40)
    expect(accountsWithMultipleConnections(page)).toEqual([{ email: "sharer@example.com", connections: 2 }])
    expect(connectionRows(page)).toEqual([expect.objectContaining({ email: "sharer@example.com", severity: "strong" })])
  })

  it("names the app from the player id or source", () => {
    expect(playerAppOf("lls", "hls")).toBe("lls")
    expect(playerAppOf("tv", "LLS")).toBe("lls")
    expect(playerAppOf("tv", "hls")).toBe("tv")
    expect(playerAppOf("", "")).toBe("tv")
  })
})

describe("households in the staff view", () => {
  it("compares connections by network when it is known: two devices of one IPv6 home are not two places", () => {
    const home = (ip: string, token: string): ConnectionEntry => ({ ...entry(ip, token), network: "2001:db8:1:2::/64" })
    expect(connectionSeverity([home("2001:db8:1:2::a", "aaa"), home("2001:db8:1:2::b", "bbb")])).toBe("light")
    expect(connectionSeverity([home("2001:db8:1:2::a", "aaa"), { ...entry("203.0.113.9", "bbb"), network: "203.0.113.9" }])).toBe("strong")
  })
})
