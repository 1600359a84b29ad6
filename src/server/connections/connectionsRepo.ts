import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely"
import { hotQuery } from "../db/hotQuery.ts"
import { pruneBefore } from "../db/pruneBefore.ts"
import type { Tables, Timestamp } from "../db/schema.ts"
import { isStoredId } from "../db/storedId.ts"
import type { Presence } from "./liveness.ts"
import { pruneUnknownViewers, pruneUnknownViewersBeyond, UNKNOWN_VIEWER_ROWS } from "./unknownViewersRepo.ts"

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
/**
 * A live connection as the staff view weighs it in this process (SQLite's): its presence (times in epoch ms, as
 * liveness.ts judges them) and what the households rule and the page's order compare. The view
 * reads every live connection at each look, so a row holds only these, ready to use.
 */
export interface WeighedConnection extends Presence {
  readonly email: string
  readonly ip: string
  readonly token: string
}

/**
 * The live connections, oldest first, then by email and id, which spares the page's sort most of
 * its work. The times are the stored ISO texts' epoch ms, worked out by the database.
 */
export async function weighableConnections(db: Kysely<Tables>, since: Timestamp): Promise<Array<WeighedConnection>> {
  return weighableQuery(db, since)
}

type SeenColumn = "player_connections.first_seen" | "player_connections.last_seen"

const epochMs = (db: Kysely<Tables>, column: SeenColumn): RawBuilder<number> =>
  db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<number>`round(extract(epoch from ${sql.ref(column)}::timestamptz) * 1000)::float8`
    : sql<number>`cast(round((julianday(${sql.ref(column)}) - 2440587.5) * 86400000) as integer)`

// built and compiled once
const weighableQuery = hotQuery((db, since: string) =>
  db
    .selectFrom("player_connections")
    .innerJoin("users", "users.id", "player_connections.user_id")
    .select([
      "player_connections.id",
      "player_connections.user_id as userId",
      "player_connections.session_id as sessionId",
      "player_connections.stream_id as streamId",
      "player_connections.network",
      epochMs(db, "player_connections.first_seen").as("firstSeen"),
      epochMs(db, "player_connections.last_seen").as("lastSeen"),
      "users.email",
      "player_connections.ip",
      "player_connections.token"
    ])
    .where("player_connections.last_seen", ">=", since)
    .where("player_connections.ended_at", "is", null)
    .orderBy("player_connections.first_seen")
    .orderBy("users.email")
    .orderBy("player_connections.id")
)

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
