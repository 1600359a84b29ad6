import type { Insertable, Kysely } from "kysely"
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

/** A batch's rows, one multi-row statement per table. */
async function commitTelemetry(trx: Kysely<Tables>, writes: ReadonlyArray<TelemetryWrite>): Promise<void> {
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
  await insertAnalyticsEvents(trx, events)
  await insertMetering(trx, metering)
  await insertHealthEvents(trx, health)
  if (samples.length > 0) await connections.qoeSamples(trx, samples)
  if (beats.length > 0) await connections.heartbeats(trx, beats, earliest)
}

/** Player telemetry arrives by the hundred a second: its writes share commits. */
export const createTelemetryWrites = (db: Kysely<Tables>): WriteBatcher<TelemetryWrite> =>
  createWriteBatcher({ db, commit: commitTelemetry })
