import * as Schema from "effect/Schema"
import { AnalyticsEvent, HealthEvents, MeteringRequest, PlayerToken, TimeSync } from "../Telemetry.ts"
import { endpoint, OkResponse } from "./endpoint.ts"

export const AnalyticsParams = Schema.Struct({
  videoType: Schema.Literals(["live", "vod"]),
  siteGroupId: Schema.String,
  event: Schema.Literals(["display", "ping", "view"])
})

/** What the players report: metering, analytics, health beacons, and the clock they correct by. */
export const telemetryContract = {
  playerToken: endpoint({
    method: "GET",
    path: "/api/player/token",
    response: PlayerToken,
    access: "user",
    summary: "This session's player token and its permissions"
  }),
  metering: endpoint({
    method: "POST",
    path: "/api/metering",
    body: MeteringRequest,
    response: OkResponse,
    access: "user",
    summary: "Player usage metering"
  }),
  analytics: endpoint({
    method: "POST",
    path: "/api/analytics/{videoType}/{siteGroupId}/{event}",
    params: AnalyticsParams,
    body: AnalyticsEvent,
    response: OkResponse,
    access: "user",
    summary: "Player analytics event"
  }),
  healthEvents: endpoint({
    method: "POST",
    path: "/api/health-events",
    body: HealthEvents,
    response: OkResponse,
    access: "user",
    summary: "Player health events (beacon): the session token travels in the body's `token` when no Token header can be sent"
  }),
  timeSync: endpoint({
    method: "GET",
    path: "/time.json",
    response: TimeSync,
    access: "anyone",
    summary: "Server time for clock correction"
  })
} as const
