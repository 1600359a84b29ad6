import type { Kysely } from "kysely"
import { hotQuery } from "../db/hotQuery.ts"
import type { Tables, Timestamp } from "../db/schema.ts"
import type { Heartbeat } from "./heartbeatsRepo.ts"

// What the origin's check of stream grants (connectionGate.ts) reads and writes of each player.

/** The player of a session on a stream, with its session's state, for the origin's check. */
export interface PlayerState {
  readonly id: number | null
  readonly token_hash: string
  readonly session_active: boolean
  readonly ended_at: Timestamp | null
  readonly ended_reason: string | null
  readonly last_seen: Timestamp | null
}

// asked for at every few playlist requests of every player: built and compiled once
const playerStateQuery = hotQuery((db, sessionId: number, streamId: string, app: string) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("player_connections", (join) =>
      join
        .onRef("player_connections.session_id", "=", "sessions.id")
        .on("player_connections.stream_id", "=", streamId)
        .on("player_connections.app", "=", app)
    )
    .select([
      "player_connections.id",
      "sessions.token_hash",
      "users.is_active",
      "sessions.expires_at",
      "player_connections.ended_at",
      "player_connections.ended_reason",
      "player_connections.last_seen"
    ])
    .where("sessions.id", "=", sessionId)
)

/** What the origin needs to know of a session's player on a stream; undefined when the session is gone. */
export async function playerState(
  db: Kysely<Tables>,
  sessionId: number,
  streamId: string,
  app: string,
  now: Timestamp
): Promise<PlayerState | undefined> {
  const [row] = await playerStateQuery(db, sessionId, streamId, app)
  if (row === undefined) return undefined
  return {
    id: row.id,
    token_hash: row.token_hash,
    session_active: Boolean(row.is_active) && row.expires_at > now,
    ended_at: row.ended_at,
    ended_reason: row.ended_reason,
    last_seen: row.last_seen
  }
}

/** A player session as it starts: what a heartbeat says of it. */
export type OpenedConnection = Heartbeat

/** Starts (or starts again) a session's player on a stream; answers its id. */
export async function openConnection(db: Kysely<Tables>, connection: OpenedConnection): Promise<number> {
  const row = await db
    .insertInto("player_connections")
    .values({
      user_id: connection.userId,
      session_id: connection.sessionId,
      token: connection.token,
      stream_id: connection.streamId,
      app: connection.app,
      ip: connection.ip,
      network: connection.network,
      first_seen: connection.at,
      last_seen: connection.at
    })
    .onConflict((oc) =>
      oc.columns(["session_id", "stream_id", "app"]).doUpdateSet((eb) => ({
        first_seen: eb.ref("excluded.first_seen"),
        last_seen: eb.ref("excluded.last_seen"),
        ip: eb.ref("excluded.ip"),
        network: eb.ref("excluded.network"),
        ended_at: null,
        ended_reason: null
      }))
    )
    .returning("id")
    .executeTakeFirstOrThrow()
  return row.id
}

/** A playlist request of an open connection: it is still there, from this address. */
export interface Touch {
  readonly id: number
  readonly ip: string
  readonly network: string
  readonly at: Timestamp
}

export async function touchConnections(db: Kysely<Tables>, touches: ReadonlyArray<Touch>): Promise<void> {
  for (const touch of touches) {
    await db
      .updateTable("player_connections")
      .set({ last_seen: touch.at, ip: touch.ip, network: touch.network })
      .where("id", "=", touch.id)
      .where("ended_at", "is", null)
      .where("last_seen", "<", touch.at)
      .execute()
  }
}

/** The players whose connections ended at or after `since` (by staff, a limit or a stop). */
export async function endedSince(
  db: Kysely<Tables>,
  since: Timestamp
): Promise<Array<{ readonly sessionId: number; readonly streamId: string; readonly app: string }>> {
  const rows = await db.selectFrom("player_connections").select(["session_id", "stream_id", "app"]).where("ended_at", ">=", since).execute()
  return rows.map((row) => ({ sessionId: row.session_id, streamId: row.stream_id, app: row.app }))
}

/** Ends a session's player on a stream, whichever connection it is. */
export async function endPlayer(
  db: Kysely<Tables>,
  key: { readonly sessionId: number; readonly streamId: string; readonly app: string },
  reason: string,
  at: Timestamp
): Promise<void> {
  await db
    .updateTable("player_connections")
    .set({ ended_at: at, ended_reason: reason })
    .where("session_id", "=", key.sessionId)
    .where("stream_id", "=", key.streamId)
    .where("app", "=", key.app)
    .where("ended_at", "is", null)
    .execute()
}
