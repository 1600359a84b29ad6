import * as Schema from "effect/Schema"
import { HEALTH_EVENTS_PER_REQUEST, HEALTH_ID_MAX_LENGTH, HEALTH_TOKEN_MAX_LENGTH, HEALTH_URL_MAX_LENGTH } from "./TelemetryLimits.ts"

// Every text a player reports is capped at what it needs: ids are short, URLs may carry a grant.
const HealthId = Schema.String.check(Schema.isMaxLength(HEALTH_ID_MAX_LENGTH))
const HealthUrl = Schema.String.check(Schema.isMaxLength(HEALTH_URL_MAX_LENGTH))
/** Free text of an analytics event that is not kept: a category's name, the customer's own id. */
const Label = Schema.String.check(Schema.isMaxLength(256))

/** Usage metering (SPEC §7): one call per factor of use, `rnd` defeats caches. */
export const MeteringRequest = Schema.Struct({
  token_id: Schema.String.check(Schema.isMaxLength(HEALTH_TOKEN_MAX_LENGTH)),
  factor: Schema.Number,
  rnd: HealthId
})
export type MeteringRequest = typeof MeteringRequest.Type
export const TOKEN_VALIDATION_FAILED = "The token online validation failed"

/**
 * The player token of the signed-in session (one per device) and what it grants (SPEC §6):
 * analytics, and no metering for accounts that are exempt from it.
 */
export const PlayerToken = Schema.Struct({
  success: Schema.Boolean,
  token: Schema.String,
  analytics: Schema.Boolean,
  noMetering: Schema.Boolean
})
export type PlayerToken = typeof PlayerToken.Type

/** Analytics body (SPEC §7); ping carries VOD 100-slice indexes or live minutes in seconds. */
export const AnalyticsEvent = Schema.Struct({
  session_id: HealthId,
  sitegroup_id: HealthId,
  media_id: HealthId,
  site_id: HealthId,
  player_id: HealthId,
  video_type: HealthId,
  created: Schema.Finite,
  position: Schema.Union([Schema.Number, Schema.Array(Schema.Number)]),
  player_version: HealthId,
  source: HealthUrl,
  category: Label,
  category_id: Label,
  autoplay: Schema.Boolean,
  muted: Schema.Boolean,
  customer_user_id: Label
})
export type AnalyticsEvent = typeof AnalyticsEvent.Type

/** What a health event is about, by the same ids analytics use (SPEC §3 media metadata). */
export const HealthIds = Schema.Struct({
  media_id: HealthId,
  site_id: HealthId,
  sitegroup_id: HealthId,
  player_id: HealthId
})
export type HealthIds = typeof HealthIds.Type

/** The player's optional parts at work in the playback the event is from. */
export const HEALTH_PLUGINS = ["analytics", "metering", "health", "time-sync", "low-latency"] as const

const HealthPlugins = Schema.Array(HealthId).check(Schema.isMaxLength(HEALTH_PLUGINS.length))

// Every text is capped and every number finite (`1e309` reads as Infinity): whatever a client
// sends is what the database keeps.
const healthEventFields = {
  session_id: HealthId,
  device_id: HealthId,
  version: HealthId,
  source: HealthUrl,
  page_url: HealthUrl,
  event: HealthId,
  current_time: Schema.Finite,
  client_time: Schema.Finite,
  adjusted_time: Schema.Finite,
  /** on a `firstframe` event: ms from asking for the source to its first picture */
  first_frame_ms: Schema.optionalKey(Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 600_000 })))
}

/** One health record as the player sends it (SPEC §7). */
export const HealthEvent = Schema.Struct({ ...healthEventFields, ids: HealthIds, plugins: HealthPlugins })
export type HealthEvent = typeof HealthEvent.Type

/**
 * The beacon's body. A beacon cannot set headers, so the session token travels in it; requests
 * that send the Token header (the fetch fallback) need not repeat it here. A tab still on an
 * earlier build sends records without ids and plugins: still worth keeping.
 */
export const HealthEvents = Schema.Struct({
  token: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(HEALTH_TOKEN_MAX_LENGTH))),
  events: Schema.Array(
    Schema.Struct({ ...healthEventFields, ids: Schema.optionalKey(HealthIds), plugins: Schema.optionalKey(HealthPlugins) })
  ).check(Schema.isMaxLength(HEALTH_EVENTS_PER_REQUEST))
})
export type HealthEvents = typeof HealthEvents.Type

export const TimeSync = Schema.Struct({ millisUtc: Schema.Number })
export type TimeSync = typeof TimeSync.Type
