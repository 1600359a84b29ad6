import type { ParamsOf } from "./contract/api.ts"
import type { HealthEvent } from "./Telemetry.ts"

// The protocols of the player's telemetry adapters (analytics, health beacon, metering, time
// sync), shared by the telemetry machine and the adapters that implement them.

/** The media metadata analytics report (SPEC §3, player media metadata). */
export interface AnalyticsMedia {
  readonly media_id: string
  readonly site_id: string
  readonly sitegroup_id: string
  /** `tv` or `lls`: the server derives the connection's app from it. */
  readonly player_id: string
  readonly category: string
  readonly category_id: string
  readonly source: string
  readonly customer_user_id: string
  readonly live: boolean
  readonly autoplay: boolean
}

export type AnalyticsCommand =
  | { readonly type: "analytics.load"; readonly media: AnalyticsMedia; readonly muted?: boolean }
  | { readonly type: "analytics.play" }
  | { readonly type: "analytics.pause" }
  | { readonly type: "analytics.progress"; readonly position: number; readonly duration: number }
  | { readonly type: "analytics.mute"; readonly muted: boolean }

export interface AnalyticsInput {
  /** One id per player page, shared with the health events of the same playback. */
  readonly sessionId: string
}

/** The analytics events of SPEC §7, as the contract's path names them. */
export type AnalyticsEventName = ParamsOf<"analytics">["event"]

export type AnalyticsFact =
  | { readonly type: "analytics.sent"; readonly event: AnalyticsEventName }
  | { readonly type: "analytics.failed"; readonly event: AnalyticsEventName; readonly detail: string }
  /** The queue was full; the item was not kept. */
  | { readonly type: "analytics.dropped"; readonly event: AnalyticsEventName }
  /** Too many failures in a row: nothing is sent for `forMs`. */
  | { readonly type: "analytics.suspended"; readonly forMs: number }

export type HealthCommand =
  | { readonly type: "health.record"; readonly event: string; readonly currentTime: number; readonly firstFrameMs?: number }
  | { readonly type: "health.flush" }

/** What every health event of one playback shares; the health actor's input. */
export type HealthContext = Omit<HealthEvent, "event" | "current_time" | "client_time" | "adjusted_time">

export type HealthTransport = "beacon" | "fetch"
export type HealthFact = { readonly type: "health.flushed"; readonly count: number; readonly transport: HealthTransport }

/** What this session's player token grants (SPEC §6); the metering actor's input. */
export interface PlayerGrant {
  readonly token: string
  readonly analytics: boolean
  readonly noMetering: boolean
}

export type MeteringCommand = { readonly type: "metering.record" }

/** A fact from the metering adapter that stops the player (SPEC §7). */
export type TokenRejected = { readonly type: "telemetry.tokenRejected"; readonly error: "token"; readonly message: string }

export type MeteringFact =
  | { readonly type: "metering.recorded" }
  | { readonly type: "metering.skipped" }
  | { readonly type: "metering.failed"; readonly detail: string }
  /** Fatal for the player: its error box shows the 'token' error with this message. */
  | TokenRejected

export type TimeSyncFact =
  | { readonly type: "time.synced"; readonly offsetMs: number }
  | { readonly type: "time.syncFailed"; readonly detail: string }

/** Who is watching, as the app knows it when a player page opens; the telemetry session actor's output. */
export interface TelemetrySession {
  /** null when the player token could not be read: nothing is metered or counted then */
  readonly grant: PlayerGrant | null
  readonly sessionId: string
  readonly deviceId: string
  readonly pageUrl: string
}
