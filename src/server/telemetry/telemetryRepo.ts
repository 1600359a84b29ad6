import type { Insertable, Kysely } from "kysely"
import type { AnalyticsEventsTable, HealthEventsTable, MeteringTable, Tables, Timestamp } from "../db/schema.ts"

// Rows per statement: far under SQLite's 32,766 bound parameters at 14 columns a row.
const ROWS_PER_INSERT = 1000

async function insertInChunks<T>(rows: ReadonlyArray<T>, insert: (chunk: Array<T>) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) await insert(rows.slice(start, start + ROWS_PER_INSERT))
}

export async function insertAnalyticsEvents(db: Kysely<Tables>, rows: ReadonlyArray<Insertable<AnalyticsEventsTable>>): Promise<void> {
  await insertInChunks(rows, (chunk) => db.insertInto("analytics_events").values(chunk).execute())
}

export async function insertHealthEvents(db: Kysely<Tables>, rows: ReadonlyArray<Insertable<HealthEventsTable>>): Promise<void> {
  await insertInChunks(rows, (chunk) => db.insertInto("health_events").values(chunk).execute())
}

export async function insertMetering(db: Kysely<Tables>, rows: ReadonlyArray<Insertable<MeteringTable>>): Promise<void> {
  await insertInChunks(rows, (chunk) => db.insertInto("metering").values(chunk).execute())
}

type TelemetryTable = "analytics_events" | "health_events" | "metering"
const TELEMETRY_TABLES: ReadonlyArray<TelemetryTable> = ["analytics_events", "health_events", "metering"]

/**
 * Deletes up to `limit` rows older than `cutoff` from each telemetry table; answers how many went.
 * Bounded, so a backlog is worked off in short transactions that requests can slip between.
 */
export async function pruneTelemetryBatch(db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> {
  let deleted = 0
  for (const table of TELEMETRY_TABLES) {
    // The three share `id` and `received_at`; naming one keeps the union out of Kysely's types.
    const same = table as "metering"
    const result = await db
      .deleteFrom(same)
      .where("id", "in", db.selectFrom(same).select("id").where("received_at", "<", cutoff).limit(limit))
      .executeTakeFirst()
    deleted += Number(result.numDeletedRows)
  }
  return deleted
}

/**
 * The id of the newest health record beyond the newest `keep`, or undefined when there are no
 * more than `keep`. Ids grow with arrival, so it and every lower id are the oldest records.
 */
export async function healthIdBeyond(db: Kysely<Tables>, keep: number): Promise<number | undefined> {
  const row = await db.selectFrom("health_events").select("id").orderBy("id", "desc").limit(1).offset(keep).executeTakeFirst()
  return row === undefined ? undefined : Number(row.id)
}

/** Deletes up to `limit` of the oldest health records with ids up to `lastId`; answers how many went. */
export async function pruneHealthUpTo(db: Kysely<Tables>, lastId: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom("health_events")
    .where("id", "in", db.selectFrom("health_events").select("id").where("id", "<=", lastId).orderBy("id").limit(limit))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
