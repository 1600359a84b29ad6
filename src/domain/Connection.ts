import * as Schema from "effect/Schema"
import type { ConnectionEntry, ConnectionsInfo, FeedStatus, StreamHealth } from "./Reports.ts"

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

/** The 'Total connections' counter: over every page when the answer is one page. */
export const totalConnections = (info: ConnectionsInfo): number =>
  info.page?.rows ?? Object.values(info.connections).reduce((sum, entries) => sum + entries.length, 0)

/** The 'Accounts streaming' counter: over every page when the answer is one page. */
export const accountsStreaming = (info: ConnectionsInfo): number =>
  info.accounts ?? Object.values(info.connections).filter((entries) => entries.length > 0).length

const distinct = (values: ReadonlyArray<string>): number => new Set(values).size

/** What the households rule compares of a connection. */
export type Household = Pick<ConnectionEntry, "ip" | "network" | "token">

/** Where a connection is, as households are compared: its network when known (an IPv6 home has many addresses), else its IP. */
const placeOf = (entry: Household): string => entry.network ?? entry.ip

/**
 * Two connections that differ in both place and token mean two devices in two places. With at
 * least two places and two tokens such a pair always exists, so counting distinct values is enough.
 */
export const isSharedAcrossDevices = (entries: ReadonlyArray<Household>): boolean =>
  distinct(entries.map(placeOf)) > 1 && distinct(entries.map((entry) => entry.token)) > 1

export const connectionSeverity = (entries: ReadonlyArray<Household>): ConnectionSeverity =>
  isSharedAcrossDevices(entries) ? "strong" : entries.length > 1 ? "light" : "none"

/** The 'Users With multiple connections' table, most connections first (the server's, when it sent one page). */
export const accountsWithMultipleConnections = (info: ConnectionsInfo): ReadonlyArray<MultipleConnections> =>
  info.multiple ??
  Object.entries(info.connections)
    .filter(([, entries]) => isSharedAcrossDevices(entries))
    .map(([email, entries]) => ({ email, connections: entries.length }))
    .sort(byConnectionsThenEmail)

/** The 'Users With multiple connections' order: most connections first, then by email. */
export const byConnectionsThenEmail = (a: MultipleConnections, b: MultipleConnections): number =>
  b.connections - a.connections || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)

/**
 * The order of the 'Sessions Streaming' rows: oldest connection first, then by email. Code-unit
 * order, not the locale's, so the server's pages and the browser's rows agree.
 */
export const byStartThenEmail = (
  a: { readonly timestamp: string; readonly email: string },
  b: { readonly timestamp: string; readonly email: string }
): number => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.email < b.email ? -1 : a.email > b.email ? 1 : 0)

/**
 * The 'Sessions Streaming' rows, oldest connection first, each with its account's severity: as
 * the server worked it out when it sent one, since a page may hold only some of an account's rows.
 */
export const connectionRows = (info: ConnectionsInfo): Array<ConnectionRow & { readonly severity: ConnectionSeverity }> =>
  Object.entries(info.connections)
    .flatMap(([email, entries]) => {
      const severity = connectionSeverity(entries)
      return entries.map((entry) => ({ ...entry, email, severity: entry.severity ?? severity }))
    })
    .sort(byStartThenEmail)

/** A stream the account is playing elsewhere, as its owner is shown it: never a whole address. */
export const PlayingElsewhere = Schema.Struct({
  id: Schema.Number,
  stream: Schema.String,
  app: Schema.String,
  device: Schema.String,
  network: Schema.String,
  since: Schema.String
})
export type PlayingElsewhere = typeof PlayingElsewhere.Type

/** What became of a stream grant the origin refused, asked by its player. */
export const StreamAccessStatus = Schema.Literals(["ok", "limit", "ended", "expired", "invalid"])
export type StreamAccessStatus = typeof StreamAccessStatus.Type

export const StreamAccess = Schema.Struct({
  success: Schema.Boolean,
  access: StreamAccessStatus,
  /** for `ended`: who ended it; `signedOut` when the session itself is over */
  reason: Schema.optionalKey(Schema.Literals(["staff", "replaced", "signedOut"])),
  /** how many streams the account may watch at once; 0 for no limit */
  maxStreams: Schema.Number,
  /** the account's other streams, oldest first */
  playing: Schema.Array(PlayingElsewhere)
})
export type StreamAccess = typeof StreamAccess.Type

/** A stream grant as the player sends it back (it rides in the playlist address as `grant`). */
export const GrantText = Schema.String.check(Schema.isMaxLength(256))

/** What a viewer over the account's stream limit is told, before the list of where the others play. */
export const streamLimitMessage = (maxStreams: number): string =>
  maxStreams === 1
    ? "This account can watch 1 stream at once, and it is playing somewhere else right now:"
    : `This account can watch ${maxStreams} streams at once, and they are all playing somewhere else right now:`
export const STREAM_LIMIT_TITLE = "Already watching elsewhere"
export const END_OLDEST_BUTTON = "End the oldest and watch here"

/** Why a stream stopped, as its viewer is told. */
export const STREAM_STOPPED: Record<"staff" | "replaced" | "signedOut", { readonly title: string; readonly text: string }> = {
  staff: {
    title: "Staff ended this session",
    text: "Someone running the service stopped this stream. You can start it again, or contact support if you think this was a mistake."
  },
  replaced: {
    title: "Playing on another device now",
    text: "This stream stopped because the account started watching somewhere else, over its limit of streams at once."
  },
  signedOut: {
    title: "Signed out",
    text: "The session this stream was opened with has ended. Sign in again to keep watching."
  }
}
export const WATCH_AGAIN_BUTTON = "Play here again"

/** Above this share of watching time stalled, or with any error, a stream needs the operator's look. */
export const REBUFFERING_ALERT = 0.02

export interface StreamHealthFigures {
  readonly firstFrame: string
  readonly rebuffering: string
  readonly needsAttention: boolean
}

/** A stream's quality as the users view shows it; "---" where there is nothing to tell. */
export const streamHealthFigures = (health: StreamHealth): StreamHealthFigures => ({
  firstFrame: health.medianFirstFrameMs === null ? "---" : `${(health.medianFirstFrameMs / 1000).toFixed(1)} s`,
  rebuffering: health.rebufferingRatio === null ? "---" : `${(health.rebufferingRatio * 100).toFixed(1)} %`,
  needsAttention: health.errors > 0 || (health.rebufferingRatio ?? 0) > REBUFFERING_ALERT
})

/** A relayed channel's feed as the users view shows it; "---" where there is nothing to tell. */
export const feedFigures = (feed: FeedStatus) => ({
  upstreamText: feed.upstreamStatus === null ? "---" : String(feed.upstreamStatus),
  newestText: feed.newestAgeMs === null ? "---" : `${(feed.newestAgeMs / 1000).toFixed(1)} s ago`,
  bitrateText: feed.bitrate === 0 ? "---" : `${(feed.bitrate / 1_000_000).toFixed(2)} Mbit/s`,
  errorText: feed.lastError ?? "---",
  sourceText: sourceText(feed),
  needsAttention: feed.state === "stalled" || feed.state === "failed"
})

/** Who sends a channel's media and how ffmpeg keeps up: "RTMP from 203.0.113.7 · 25 fps · 1.00×". */
const sourceText = (feed: FeedStatus): string => {
  const encoder = feed.encoder ?? null
  const parts = [
    feed.source ?? null,
    encoder?.fps == null ? null : `${Math.round(encoder.fps)} fps`,
    encoder?.speed == null ? null : `${encoder.speed.toFixed(2)}×`
  ].filter((part): part is string => part !== null)
  return parts.length === 0 ? "---" : parts.join(" · ")
}
