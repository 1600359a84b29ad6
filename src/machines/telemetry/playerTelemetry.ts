import type { PlayerApp } from "../../domain/connections.ts"
import { PLAYER_VERSION } from "../../domain/constants.ts"
import type { MediaMetadata } from "../../domain/PlayerUi.ts"
import type { HEALTH_PLUGINS } from "../../domain/Telemetry.ts"

type HealthPlugin = (typeof HEALTH_PLUGINS)[number]

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
  /** what is being watched, by the ids analytics use */
  readonly ids: { readonly media_id: string; readonly site_id: string; readonly sitegroup_id: string; readonly player_id: string }
  /** the player's optional parts at work in this playback */
  readonly plugins: ReadonlyArray<string>
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

/** What the telemetry machine knows of the playback that health events describe. */
export interface HealthSubject {
  readonly app: PlayerApp
  readonly session: TelemetrySession | null
  readonly media: AnalyticsMedia | null
}

/** The player's optional parts this playback runs with, as health events list them. */
const pluginsOf = ({ app, session }: HealthSubject): Array<HealthPlugin> => {
  const grant = session?.grant ?? null
  return [
    ...(grant?.analytics === true ? (["analytics"] as const) : []),
    ...(grant !== null && !grant.noMetering ? (["metering"] as const) : []),
    "health",
    "time-sync",
    ...(app === "lls" ? (["low-latency"] as const) : [])
  ]
}

export const healthContextOf = (subject: HealthSubject): HealthContext => ({
  session_id: subject.session?.sessionId ?? "",
  device_id: subject.session?.deviceId ?? "",
  version: PLAYER_VERSION,
  source: subject.media?.source ?? "",
  page_url: subject.session?.pageUrl ?? "",
  ids: {
    media_id: subject.media?.media_id ?? "",
    site_id: subject.media?.site_id ?? "",
    sitegroup_id: subject.media?.sitegroup_id ?? "",
    player_id: subject.media?.player_id ?? subject.app
  },
  plugins: pluginsOf(subject)
})

/** Health events take the names of the media element's own events (and the window's, for size). */
export const healthEvents = {
  "media.playing": "playing",
  "media.paused": "pause",
  "media.waiting": "waiting",
  "media.ended": "ended",
  "media.failed": "error",
  "media.fault": "error",
  "media.volumeChanged": "volumechange",
  "screen.resized": "resize"
} as const
