import type { PlayerApp } from "../domain/connections.ts"
import type { MediaMetadata } from "../domain/PlayerUi.ts"

/**
 * The player's side of the telemetry adapters' protocols (analytics, health beacon, metering,
 * time sync). Machines import only the domain, so these mirror the adapters' own types; `src/app`
 * hands the adapters to the telemetry machine, which keeps the two in step through the type checker.
 */
export interface AnalyticsMedia {
  readonly media_id: string
  readonly site_id: string
  readonly sitegroup_id: string
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

export type HealthCommand =
  | { readonly type: "health.record"; readonly event: string; readonly currentTime: number }
  | { readonly type: "health.flush" }

/** What every health event of one playback shares. */
export interface HealthContext {
  readonly session_id: string
  readonly device_id: string
  readonly version: string
  readonly source: string
  readonly page_url: string
}

export type MeteringCommand = { readonly type: "metering.record" }

/** What this session's player token grants (SPEC §6). */
export interface PlayerGrant {
  readonly token: string
  readonly analytics: boolean
  readonly noMetering: boolean
}

/** Who is watching, as the app knows it when a player page opens. */
export interface TelemetrySession {
  /** null when the player token could not be read: nothing is metered or counted then */
  readonly grant: PlayerGrant | null
  readonly sessionId: string
  readonly deviceId: string
  readonly pageUrl: string
}

/** A fact from the metering adapter that stops the player (SPEC §7). */
export type TokenRejected = { readonly type: "telemetry.tokenRejected"; readonly error: "token"; readonly message: string }

/** The site group analytics paths carry; this install is one site. */
export const SITE_GROUP_ID = "default"

export const analyticsMediaOf = (metadata: MediaMetadata, source: string, app: PlayerApp): AnalyticsMedia => ({
  media_id: metadata.media_id,
  site_id: metadata.site_id,
  sitegroup_id: metadata.sitegroup_id,
  player_id: app,
  category: "",
  category_id: metadata.category_id,
  source,
  customer_user_id: "",
  live: metadata.live,
  autoplay: true
})
