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
 * Refreshes a connection's `last_seen`. A connection that had gone quiet (older than
 * `liveSince`) starts again: its `first_seen` moves to now, so staff see when watching resumed.
 */
export async function recordHeartbeat(db: Kysely<Tables>, beat: Heartbeat, liveSince: Timestamp): Promise<void> {
  await db.insertInto("player_connections")
    .values({ user_id: beat.userId, token: beat.token, ip: beat.ip, app: beat.app, first_seen: beat.at, last_seen: beat.at })
    .onConflict((oc) => oc.columns(["user_id", "token", "ip", "app"]).doUpdateSet((eb) => ({
      first_seen: eb.case()
        .when("player_connections.last_seen", "<", liveSince).then(beat.at)
        .else(eb.ref("player_connections.first_seen"))
        .end(),
      last_seen: beat.at
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
