import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"

export interface Heartbeat {
  readonly userId: number
  readonly token: string
  readonly ip: string
  readonly app: string
  readonly at: Timestamp
}

/** A connection as staff see it, with the account it belongs to. */
export interface LiveConnection {
  readonly email: string
  readonly token: string
  readonly ip: string
  readonly app: string
  readonly first_seen: Timestamp
  readonly last_seen: Timestamp
}

/**
 * Refreshes the connections' `last_seen`, one statement for the lot. A connection that had gone
 * quiet (older than `liveSince`) starts again: its `first_seen` moves to now, so staff see when
 * watching resumed. Beats of one connection collapse into its latest, since one statement may
 * not update a row twice.
 */
export async function recordHeartbeats(db: Kysely<Tables>, beats: ReadonlyArray<Heartbeat>, liveSince: Timestamp): Promise<void> {
  const latest = new Map<string, Heartbeat>()
  for (const beat of beats) {
    const key = JSON.stringify([beat.userId, beat.token, beat.ip, beat.app])
    const seen = latest.get(key)
    if (seen === undefined || seen.at <= beat.at) latest.set(key, beat)
  }
  if (latest.size === 0) return
  await db.insertInto("player_connections")
    .values([...latest.values()].map((beat) => ({ user_id: beat.userId, token: beat.token, ip: beat.ip, app: beat.app, first_seen: beat.at, last_seen: beat.at })))
    .onConflict((oc) => oc.columns(["user_id", "token", "ip", "app"]).doUpdateSet((eb) => ({
      first_seen: eb.case()
        .when("player_connections.last_seen", "<", liveSince).then(eb.ref("excluded.first_seen"))
        .else(eb.ref("player_connections.first_seen"))
        .end(),
      last_seen: eb.ref("excluded.last_seen")
    })))
    .execute()
}

/** Connections with a heartbeat at or after `since`, oldest first. */
export async function liveConnections(db: Kysely<Tables>, since: Timestamp): Promise<Array<LiveConnection>> {
  return db.selectFrom("player_connections")
    .innerJoin("users", "users.id", "player_connections.user_id")
    .select(["users.email", "player_connections.token", "player_connections.ip", "player_connections.app",
      "player_connections.first_seen", "player_connections.last_seen"])
    .where("player_connections.last_seen", ">=", since)
    .orderBy("player_connections.first_seen")
    .orderBy("player_connections.id")
    .execute()
}

/** Forgets up to `limit` connections quiet since before `cutoff`; answers how many went. */
export async function pruneConnections(db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> {
  const result = await db.deleteFrom("player_connections")
    .where("id", "in", db.selectFrom("player_connections").select("id").where("last_seen", "<", cutoff).limit(limit))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
