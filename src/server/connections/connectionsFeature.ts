import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { connectionHandlers, LIVE_CONNECTION_WINDOW_MS } from "./connectionHandlers.ts"
import { type Heartbeat, pruneConnections, recordHeartbeats } from "./connectionsRepo.ts"
import { createPlaylistWatchers, registerPlaylistWatch } from "./playlistWatchers.ts"

/** Who is watching right now, for the staff users view: player heartbeats and live playlist fetches. */
export function connectionsFeature({ db, now }: FeatureDeps): ServerFeature {
  const playlists = createPlaylistWatchers({ windowMs: LIVE_CONNECTION_WINDOW_MS })
  return {
    handlers: connectionHandlers({ db, now, playlists }),
    // on the root instance, so the hook also sees the origin's playlists
    routes: async (app) => registerPlaylistWatch(app, playlists, now)
  }
}

/** What player telemetry reports of a connection, and how its old rows go. */
export const connections = {
  /** Players' heartbeats as of `at`; a connection quiet for the live window starts afresh. */
  heartbeats: (db: Kysely<Tables>, beats: ReadonlyArray<Heartbeat>, at: number): Promise<void> =>
    recordHeartbeats(db, beats, new Date(at - LIVE_CONNECTION_WINDOW_MS).toISOString()),
  prune: (db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> => pruneConnections(db, cutoff, limit)
} as const
