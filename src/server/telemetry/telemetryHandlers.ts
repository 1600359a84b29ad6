import type { Kysely } from "kysely"
import { playerAppOf } from "../../domain/Connection.ts"
import type { telemetryContract } from "../../domain/contract/telemetry.ts"
import { type AnalyticsEvent, TOKEN_VALIDATION_FAILED } from "../../domain/Telemetry.ts"
import { connections } from "../connections/connectionsFeature.ts"
import type { Tables } from "../db/schema.ts"
import type { WriteBatcher } from "../db/writeBatcher.ts"
import { HttpFailure, invalidInput, tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { hasNoMetering } from "./playerToken.ts"
import type { TelemetryKind, TelemetryQuota, TelemetrySender } from "./telemetryQuotas.ts"
import type { TelemetryWrite } from "./telemetryWrites.ts"

/** One view is factor 1; anything far above it is a broken or hostile client. */
export const MAX_METERING_FACTOR = 100
const VOD_SLICES = 100

export interface TelemetryDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  /** Telemetry rows go through it: acknowledged once committed, in a commit shared with others. */
  readonly writes: WriteBatcher<TelemetryWrite>
  /** health records as per-stream quality samples */
  readonly qoe: ReturnType<typeof connections.qoeTracker>
  /** The budgets of rows per session and per account; refused records are not stored. */
  readonly quota: TelemetryQuota
}

export type TelemetryHandlers = HandlersOf<typeof telemetryContract>

const isSlice = (value: number): boolean => Number.isInteger(value) && value >= 0 && value < VOD_SLICES
const isSeconds = (value: number): boolean => Number.isFinite(value) && value >= 0

/** Why a position does not fit its event (SPEC §7), or undefined when it does. */
export function positionProblem(videoType: "live" | "vod", event: string, position: AnalyticsEvent["position"]): string | undefined {
  if (typeof position === "number") {
    if (videoType === "vod" && event === "ping") return "Expected the 100-slice indexes reached since the last ping"
    return isSeconds(position) ? undefined : "Expected a number of seconds of at least 0"
  }
  if (videoType !== "vod" || event !== "ping") return "Expected a number of seconds"
  if (position.length > VOD_SLICES || !position.every(isSlice)) return "Expected slice indexes from 0 to 99"
  return undefined
}

const WHAT: Record<TelemetryKind, string> = { health: "health events", analytics: "analytics events", metering: "metering calls" }

export function telemetryHandlers({ db, now, writes, qoe, quota }: TelemetryDeps): TelemetryHandlers {
  const iso = (ms: number) => new Date(ms).toISOString()
  /** Refuses with 429 the records beyond a budget of their session or account. */
  const withinBudget = (kind: TelemetryKind, sender: TelemetrySender, records: number): void => {
    const refusal = quota(kind, sender, records)
    if (refusal === undefined) return
    const seconds = Math.max(1, Math.ceil(refusal.waitMs / 1000))
    throw tooManyRequests(`Too many ${WHAT[kind]} from this ${refusal.per}. Try again in ${waitText(seconds)}.`, seconds)
  }
  return {
    async playerToken({ session }) {
      const noMetering = await hasNoMetering(db, session.userId)
      return { success: true, token: connections.playerTokenOf(session.tokenHash), analytics: true, noMetering }
    },

    async metering({ body, session }) {
      if (!(body.factor > 0 && body.factor <= MAX_METERING_FACTOR)) {
        throw invalidInput(`factor: Expected a number above 0 and at most ${MAX_METERING_FACTOR}`)
      }
      // 401, not 403: the session is fine, the player holds a token of another session; the
      // player stops with its fatal 'token' error instead of sending the user to sign in.
      if (body.token_id !== connections.playerTokenOf(session.tokenHash)) throw new HttpFailure(401, TOKEN_VALIDATION_FAILED)
      withinBudget("metering", session, 1)
      if (await hasNoMetering(db, session.userId)) return { success: true }
      const row = { user_id: session.userId, token_id: body.token_id, factor: body.factor, received_at: iso(now()) }
      await writes.write({ kind: "metering", row })
      return { success: true }
    },

    async analytics({ params, body, session, request }) {
      if (body.video_type !== params.videoType) throw invalidInput(`video_type: Expected "${params.videoType}" as in the path`)
      if (body.sitegroup_id !== params.siteGroupId) throw invalidInput("sitegroup_id: Expected the site group of the path")
      const problem = positionProblem(params.videoType, params.event, body.position)
      if (problem !== undefined) throw invalidInput(`position: ${problem}`)
      withinBudget("analytics", session, 1)
      const at = now()
      const event = {
        // The account comes from the session; `customer_user_id` is the client's say-so.
        user_id: session.userId,
        event: params.event,
        video_type: params.videoType,
        sitegroup_id: body.sitegroup_id,
        media_id: body.media_id,
        session_id: body.session_id,
        player_id: body.player_id,
        position: JSON.stringify(body.position),
        created: body.created,
        received_at: iso(at),
        ip: request.ip
      }
      // `view` counts too, so a new viewer shows up at once rather than after the first 60 s ping.
      const beat =
        params.event === "display"
          ? undefined
          : {
              userId: session.userId,
              sessionId: session.sessionId,
              token: connections.playerTokenOf(session.tokenHash),
              streamId: body.media_id,
              ip: request.ip,
              network: connections.networkOf(request.ip),
              app: playerAppOf(body.player_id, body.source),
              at: iso(at)
            }
      await writes.write({ kind: "analytics", event, beat, at })
      return { success: true }
    },

    async healthEvents({ body, session, request }) {
      withinBudget("health", session, body.events.length)
      const receivedAt = iso(now())
      const rows = body.events.map((event) => ({
        user_id: session.userId,
        session_id: event.session_id,
        device_id: event.device_id,
        version: event.version,
        event: event.event,
        current_time: event.current_time,
        client_time: event.client_time,
        adjusted_time: event.adjusted_time,
        source: event.source,
        page_url: event.page_url,
        ids: JSON.stringify(event.ids ?? {}),
        plugins: JSON.stringify(event.plugins ?? []),
        received_at: receivedAt,
        ip: request.ip
      }))
      if (rows.length > 0) await writes.write({ kind: "health", rows, samples: qoe(body.events, receivedAt) })
      return { success: true }
    },

    async timeSync() {
      return { millisUtc: now() }
    }
  }
}
