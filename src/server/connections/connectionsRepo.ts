import type { Kysely } from "kysely"
import { hotQuery } from "../db/hotQuery.ts"
import { pruneBefore } from "../db/pruneBefore.ts"
import type { Tables, Timestamp } from "../db/schema.ts"
import { isStoredId } from "../db/storedId.ts"
import { pruneUnknownViewers, pruneUnknownViewersBeyond, UNKNOWN_VIEWER_ROWS } from "./unknownViewersRepo.ts"

/** A player's heartbeat, as the analytics endpoint hears it. */
export interface Heartbeat {
  readonly userId: number
  readonly sessionId: number
  readonly token: string
  readonly streamId: string
  readonly app: string
  readonly ip: string
  readonly network: string
  readonly at: Timestamp
}

/** A live connection as the staff view weighs it: whose, from where, since and until when. */
export interface LiveConnectionRow {
  readonly id: number
  readonly user_id: number
  readonly session_id: number
  readonly email: string
  readonly token: string
  readonly stream_id: string
  readonly app: string
  readonly ip: string
  readonly network: string
  readonly first_seen: Timestamp
  readonly last_seen: Timestamp
}

/** What a connection's row shows beyond that: its stream's name and its device. */
export interface ConnectionDetails {
  readonly stream_title: string | null
  readonly user_agent: string | null
  readonly is_mobile: boolean
}

/** A connection with what staff and the account's owner are shown of it. */
export interface ConnectionRow extends LiveConnectionRow, ConnectionDetails {}

/** The player of a session on a stream, with its session's state, for the origin's check. */
export interface PlayerState {
  readonly id: number | null
  readonly token_hash: string
  readonly session_active: boolean
  readonly ended_at: Timestamp | null
  readonly ended_reason: string | null
  readonly last_seen: Timestamp | null
}

/**
 * Refreshes the connections' `last_seen`, one statement for the lot. A connection that had gone
 * quiet (older than `liveSince`) or whose player stopped starts again: its `first_seen` moves to
 * now. One that staff or the account's limit ended stays ended. Beats of one connection collapse
 * into its latest, since one statement may not update a row twice.
 */
export async function recordHeartbeats(db: Kysely<Tables>, beats: ReadonlyArray<Heartbeat>, liveSince: Timestamp): Promise<void> {
  const latest = new Map<string, Heartbeat>()
  for (const beat of beats) {
    const key = JSON.stringify([beat.sessionId, beat.streamId, beat.app])
    const seen = latest.get(key)
    if (seen === undefined || seen.at <= beat.at) latest.set(key, beat)
  }
  if (latest.size === 0) return
  await db
    .insertInto("player_connections")
    .values(
      [...latest.values()].map((beat) => ({
        user_id: beat.userId,
        session_id: beat.sessionId,
        token: beat.token,
        stream_id: beat.streamId,
        app: beat.app,
        ip: beat.ip,
        network: beat.network,
        first_seen: beat.at,
        last_seen: beat.at
      }))
    )
    .onConflict((oc) =>
      oc
        .columns(["session_id", "stream_id", "app"])
        .doUpdateSet((eb) => ({
          first_seen: eb
            .case()
            .when(eb.or([eb("player_connections.last_seen", "<", liveSince), eb("player_connections.ended_at", "is not", null)]))
            .then(eb.ref("excluded.first_seen"))
            .else(eb.ref("player_connections.first_seen"))
            .end(),
          last_seen: eb.ref("excluded.last_seen"),
          ip: eb.ref("excluded.ip"),
          network: eb.ref("excluded.network"),
          ended_at: null,
          ended_reason: null
        }))
        .where((eb) => eb.or([eb("player_connections.ended_at", "is", null), eb("player_connections.ended_reason", "=", "stopped")]))
    )
    .execute()
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

const liveColumns = [
  "player_connections.id",
  "player_connections.user_id",
  "player_connections.session_id",
  "users.email",
  "player_connections.token",
  "player_connections.stream_id",
  "player_connections.app",
  "player_connections.ip",
  "player_connections.network",
  "player_connections.first_seen",
  "player_connections.last_seen"
] as const

function liveQuery(db: Kysely<Tables>, since: Timestamp) {
  return db
    .selectFrom("player_connections")
    .innerJoin("users", "users.id", "player_connections.user_id")
    .select(liveColumns)
    .where("player_connections.last_seen", ">=", since)
    .where("player_connections.ended_at", "is", null)
}

function detailedQuery(db: Kysely<Tables>) {
  return db
    .selectFrom("player_connections")
    .innerJoin("users", "users.id", "player_connections.user_id")
    .leftJoin("sessions", "sessions.id", "player_connections.session_id")
    .leftJoin("streams", (join) => join.on((eb) => eb(eb.cast("streams.id", "text"), "=", eb.ref("player_connections.stream_id"))))
    .select(liveColumns)
    .select(["sessions.user_agent", "sessions.is_mobile", "streams.title as stream_title"])
}

// The rows are the driver's own fresh objects: fixed in place, not copied (a session left joined
// may have no device, which counts as not mobile).
const normalise = (rows: Array<Omit<ConnectionRow, "is_mobile"> & { is_mobile: unknown }>): Array<ConnectionRow> => {
  for (const row of rows) if (typeof row.is_mobile !== "boolean") row.is_mobile = Boolean(row.is_mobile)
  return rows as Array<ConnectionRow>
}

/**
 * Open connections seen at or after `since`, in no particular order (the staff view sorts them its
 * own way), without their details: the staff view weighs thousands of them and shows a page (see
 * `connectionsWithDetails`).
 */
export async function openConnections(db: Kysely<Tables>, since: Timestamp): Promise<Array<LiveConnectionRow>> {
  return openConnectionsQuery(db, since)
}

// the staff view on SQLite reads every live connection at each look: built and compiled once
const openConnectionsQuery = hotQuery((db, since: string) => liveQuery(db, since))

/** Live connections per stream (seen since `since`, not ended), for the metrics. */
export async function liveCountsByStream(db: Kysely<Tables>, since: Timestamp): Promise<Array<{ stream: string; viewers: number }>> {
  const rows = await db
    .selectFrom("player_connections")
    .select((eb) => ["stream_id", eb.fn.countAll<number>().as("viewers")])
    .where("last_seen", ">=", since)
    .where("ended_at", "is", null)
    .groupBy("stream_id")
    .execute()
  return rows.map((row) => ({ stream: row.stream_id, viewers: Number(row.viewers) }))
}

/** The connections of `ids` with their details, in no particular order; ended ones too. */
export async function connectionsWithDetails(db: Kysely<Tables>, ids: ReadonlyArray<number>): Promise<Array<ConnectionRow>> {
  const rows: Array<ConnectionRow> = []
  // a statement takes a bounded number of parameters (SQLite's limit is the lower)
  for (let start = 0; start < ids.length; start += DETAILS_PER_QUERY) {
    const chunk = ids.slice(start, start + DETAILS_PER_QUERY)
    rows.push(...normalise(await detailedQuery(db).where("player_connections.id", "in", chunk).execute()))
  }
  return rows
}

const DETAILS_PER_QUERY = 500

/** One account's open connections seen at or after `since`, oldest first. */
export async function openConnectionsOf(db: Kysely<Tables>, userId: number, since: Timestamp): Promise<Array<ConnectionRow>> {
  return normalise(
    await detailedQuery(db)
      .where("player_connections.user_id", "=", userId)
      .where("player_connections.last_seen", ">=", since)
      .where("player_connections.ended_at", "is", null)
      .orderBy("player_connections.first_seen")
      .orderBy("player_connections.id")
      .execute()
  )
}

export interface EndedConnection {
  readonly id: number
  readonly session_id: number
  readonly stream_id: string
  readonly app: string
}

/** Ends an open connection (of `userId`'s only, when given); answers it, or undefined when there was none. */
export async function endConnection(
  db: Kysely<Tables>,
  id: number,
  reason: string,
  at: Timestamp,
  userId?: number
): Promise<EndedConnection | undefined> {
  // the id comes from a client: 1.5 or 2^40 names no connection (and PostgreSQL would refuse it)
  if (!isStoredId(id)) return undefined
  let query = db
    .updateTable("player_connections")
    .set({ ended_at: at, ended_reason: reason })
    .where("id", "=", id)
    .where("ended_at", "is", null)
  if (userId !== undefined) query = query.where("user_id", "=", userId)
  return query.returning(["id", "session_id", "stream_id", "app"]).executeTakeFirst()
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

/** Forgets up to `limit` connections and refused addresses quiet since before `cutoff`; answers how many went. */
export async function pruneConnections(db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> {
  return (await pruneBefore(db, "player_connections", "id", "last_seen", cutoff, limit)) + (await pruneUnknownViewers(db, cutoff, limit))
}

/** Forgets up to `limit` of the oldest refused networks beyond their budget; answers how many went. */
export const pruneConnectionsOverBudget = (db: Kysely<Tables>, limit: number): Promise<number> =>
  pruneUnknownViewersBeyond(db, UNKNOWN_VIEWER_ROWS, limit)

/** The key every instance signs stream grants with. */
export async function grantKey(db: Kysely<Tables>): Promise<string> {
  const row = await db.selectFrom("server_keys").select("value").where("name", "=", "stream-grants").executeTakeFirstOrThrow()
  return row.value
}
