import type { Insertable, Kysely } from "kysely"
import type { AnalyticsEventsTable, HealthEventsTable, MeteringTable, Tables, Timestamp } from "../db/schema.ts"

export async function insertAnalyticsEvent(db: Kysely<Tables>, row: Insertable<AnalyticsEventsTable>): Promise<void> {
  await db.insertInto("analytics_events").values(row).execute()
}

export async function insertHealthEvents(db: Kysely<Tables>, rows: ReadonlyArray<Insertable<HealthEventsTable>>): Promise<void> {
  if (rows.length > 0) await db.insertInto("health_events").values([...rows]).execute()
}

export async function insertMetering(db: Kysely<Tables>, row: Insertable<MeteringTable>): Promise<void> {
  await db.insertInto("metering").values(row).execute()
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
    const result = await db.deleteFrom(same)
      .where("id", "in", db.selectFrom(same).select("id").where("received_at", "<", cutoff).limit(limit))
      .executeTakeFirst()
    deleted += Number(result.numDeletedRows)
  }
  return deleted
}
