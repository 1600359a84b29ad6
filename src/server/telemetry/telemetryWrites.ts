import { type Insertable, type Kysely, PostgresAdapter } from "kysely"
import { connections } from "../connections/connectionsFeature.ts"
import type { AnalyticsEventsTable, HealthEventsTable, MeteringTable, Tables } from "../db/schema.ts"
import { createWriteBatcher, type WriteBatcher } from "../db/writeBatcher.ts"
import { insertAnalyticsEvents, insertHealthEvents, insertMetering } from "./telemetryRepo.ts"

type Heartbeat = Parameters<typeof connections.heartbeats>[1][number]
type QoeSample = Parameters<typeof connections.qoeSamples>[1][number]

/** One request's telemetry rows. */
export type TelemetryWrite =
  | { readonly kind: "analytics"; readonly event: Insertable<AnalyticsEventsTable>; readonly beat?: Heartbeat; readonly at: number }
  | { readonly kind: "metering"; readonly row: Insertable<MeteringTable> }
  | { readonly kind: "health"; readonly rows: ReadonlyArray<Insertable<HealthEventsTable>>; readonly samples: ReadonlyArray<QoeSample> }

/**
 * A batch's rows, one multi-row statement per table, in one transaction. On PostgreSQL a batch of
 * heartbeats alone (most of them) is one statement: the analytics rows are written by a common
 * table expression of the connections' upsert, one round trip instead of four.
 */
async function commitTelemetry(db: Kysely<Tables>, writes: ReadonlyArray<TelemetryWrite>): Promise<void> {
  const events: Array<Insertable<AnalyticsEventsTable>> = []
  const beats: Array<Heartbeat> = []
  const metering: Array<Insertable<MeteringTable>> = []
  const health: Array<Insertable<HealthEventsTable>> = []
  const samples: Array<QoeSample> = []
  let earliest = Number.POSITIVE_INFINITY
  for (const write of writes) {
    if (write.kind === "analytics") {
      events.push(write.event)
      if (write.beat !== undefined) beats.push(write.beat)
      earliest = Math.min(earliest, write.at)
    } else if (write.kind === "metering") {
      metering.push(write.row)
    } else {
      health.push(...write.rows)
      samples.push(...write.samples)
    }
  }
  const beatsAlone = metering.length === 0 && health.length === 0 && samples.length === 0 && beats.length > 0
  if (beatsAlone && db.getExecutor().adapter instanceof PostgresAdapter) {
    await connections.heartbeats(
      db.with("beat_events", (creator) => creator.insertInto("analytics_events").values(events)),
      beats,
      earliest
    )
    return
  }
  await db.transaction().execute(async (trx) => {
    await insertAnalyticsEvents(trx, events)
    await insertMetering(trx, metering)
    await insertHealthEvents(trx, health)
    if (samples.length > 0) await connections.qoeSamples(trx, samples)
    if (beats.length > 0) await connections.heartbeats(trx, beats, earliest)
  })
}

/** Player telemetry arrives by the hundred a second: its writes share commits. */
export const createTelemetryWrites = (db: Kysely<Tables>): WriteBatcher<TelemetryWrite> =>
  createWriteBatcher({ db, commit: commitTelemetry, transaction: false })
