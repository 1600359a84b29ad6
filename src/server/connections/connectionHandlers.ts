import type { Kysely } from "kysely"
import type { ConnectionEntry } from "../../domain/Reports.ts"
import type { Tables } from "../db/schema.ts"
import type { Handler } from "../http/registerContract.ts"
import { liveConnections } from "./connectionsRepo.ts"
import type { PlaylistWatchers } from "./playlistWatchers.ts"

/** A connection is live while its player has pinged within this window (live pings come every 60 s). */
export const LIVE_CONNECTION_WINDOW_MS = 2 * 60 * 1000

export interface ConnectionHandlers {
  connections: Handler<"connections">
}

export interface ConnectionDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly playlists: PlaylistWatchers
}

export function connectionHandlers({ db, now, playlists }: ConnectionDeps): ConnectionHandlers {
  return {
    async connections() {
      const at = now()
      const live = await liveConnections(db, new Date(at - LIVE_CONNECTION_WINDOW_MS).toISOString())
      const connections: Record<string, Array<ConnectionEntry>> = {}
      for (const row of live) {
        const entry: ConnectionEntry = { timestamp: row.first_seen, app: row.app, ip: row.ip, token: row.token }
        ;(connections[row.email] ??= []).push(entry)
      }
      const known = new Set(live.map((row) => row.ip))
      const unknownIps = playlists.recent(at).filter((ip) => !known.has(ip))
      return { connections, unknownIps }
    }
  }
}
