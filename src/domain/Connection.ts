import type { ConnectionEntry, ConnectionsInfo } from "./Reports.ts"

/** Which player a connection comes from, as staff see it in the 'app' column. */
export type PlayerApp = "tv" | "lls"

/** Row colour in the 'Sessions Streaming' table (SPEC §2, Users view). */
export type ConnectionSeverity = "strong" | "light" | "none"

export interface ConnectionRow extends ConnectionEntry {
  readonly email: string
}

export interface MultipleConnections {
  readonly email: string
  readonly connections: number
}

/**
 * The low-latency player identifies itself as `lls` in either field; everything else is the TV
 * player, so an older or unknown player never disappears from the staff view.
 */
export const playerAppOf = (playerId: string, source: string): PlayerApp =>
  playerId.toLowerCase() === "lls" || source.toLowerCase() === "lls" ? "lls" : "tv"

export const totalConnections = (info: ConnectionsInfo): number =>
  Object.values(info.connections).reduce((sum, entries) => sum + entries.length, 0)

export const accountsStreaming = (info: ConnectionsInfo): number =>
  Object.values(info.connections).filter((entries) => entries.length > 0).length

const distinct = (values: ReadonlyArray<string>): number => new Set(values).size

/**
 * Two connections that differ in both IP and token mean two devices in two places. With at least
 * two IPs and two tokens such a pair always exists, so counting distinct values is enough.
 */
export const isSharedAcrossDevices = (entries: ReadonlyArray<ConnectionEntry>): boolean =>
  distinct(entries.map((entry) => entry.ip)) > 1 && distinct(entries.map((entry) => entry.token)) > 1

export const connectionSeverity = (entries: ReadonlyArray<ConnectionEntry>): ConnectionSeverity =>
  isSharedAcrossDevices(entries) ? "strong" : entries.length > 1 ? "light" : "none"

/** The 'Users With multiple connections' table, most connections first. */
export const accountsWithMultipleConnections = (info: ConnectionsInfo): Array<MultipleConnections> =>
  Object.entries(info.connections)
    .filter(([, entries]) => isSharedAcrossDevices(entries))
    .map(([email, entries]) => ({ email, connections: entries.length }))
    .sort((a, b) => b.connections - a.connections || a.email.localeCompare(b.email))

/** The 'Sessions Streaming' rows, oldest connection first, each with its account's severity. */
export const connectionRows = (info: ConnectionsInfo): Array<ConnectionRow & { readonly severity: ConnectionSeverity }> =>
  Object.entries(info.connections)
    .flatMap(([email, entries]) => {
      const severity = connectionSeverity(entries)
      return entries.map((entry) => ({ ...entry, email, severity }))
    })
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.email.localeCompare(b.email))
