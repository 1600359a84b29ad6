import type { PlayerApp } from "../../domain/Connection.ts"
import type { MediaMetadata } from "../../domain/PlayerUi.ts"
import type { HEALTH_PLUGINS } from "../../domain/Telemetry.ts"
import { PLAYER_VERSION } from "../../domain/TelemetryLimits.ts"
import type { AnalyticsMedia, HealthContext, TelemetrySession } from "../../domain/TelemetryProtocol.ts"

type HealthPlugin = (typeof HEALTH_PLUGINS)[number]

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
