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

/** Deletes telemetry older than `cutoff`; answers how many rows went. */
export async function pruneTelemetry(db: Kysely<Tables>, cutoff: Timestamp): Promise<number> {
  const results = await Promise.all([
    db.deleteFrom("analytics_events").where("received_at", "<", cutoff).executeTakeFirst(),
    db.deleteFrom("health_events").where("received_at", "<", cutoff).executeTakeFirst(),
    db.deleteFrom("metering").where("received_at", "<", cutoff).executeTakeFirst()
  ])
  return results.reduce((sum, result) => sum + Number(result.numDeletedRows), 0)
}
