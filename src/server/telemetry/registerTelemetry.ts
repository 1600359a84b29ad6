import type { FastifyInstance } from "fastify"
import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { createHousekeeping } from "./housekeeping.ts"
import { createPlaylistWatchers, registerPlaylistWatch } from "./playlistWatchers.ts"
import { LIVE_CONNECTION_WINDOW_MS, type TelemetryHandlers, telemetryHandlers } from "./telemetryHandlers.ts"

export interface TelemetryOptions {
  readonly db: Kysely<Tables>
  readonly now: () => number
}

/**
 * Watches live playlist requests on `app` (call it on the root instance, so the hook sees the
 * origin's routes) and answers the telemetry handlers for the API contract.
 */
export function registerTelemetry(app: FastifyInstance, { db, now }: TelemetryOptions): TelemetryHandlers {
  const playlists = createPlaylistWatchers({ windowMs: LIVE_CONNECTION_WINDOW_MS })
  registerPlaylistWatch(app, playlists, now)
  const housekeeping = createHousekeeping({
    db,
    now,
    onError: (error) => app.log.warn({ err: error }, "telemetry: pruning old rows failed")
  })
  return telemetryHandlers({ db, now, housekeeping, playlists })
}
