import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { connections } from "../connections/connectionsFeature.ts"
import { type PeriodicJob, startPeriodicJob } from "../http/periodicJob.ts"
import { pruneTelemetryBatch } from "./telemetryRepo.ts"

export const TELEMETRY_RETENTION_DAYS = 30
const MINUTE_MS = 60 * 1000
const DAY_MS = 24 * 60 * MINUTE_MS

export interface TelemetryPruneOptions {
  readonly retentionMs?: number
  /** Rows per table and statement. */
  readonly batch?: number
}

/**
 * Deletes telemetry and connections older than the retention, a batch at a time, handing the
 * event loop back between batches so a large backlog never holds requests up.
 */
export async function pruneOldTelemetry(db: Kysely<Tables>, now: number, options: TelemetryPruneOptions = {}): Promise<number> {
  const cutoff = new Date(now - (options.retentionMs ?? TELEMETRY_RETENTION_DAYS * DAY_MS)).toISOString()
  const batch = options.batch ?? 2000
  let total = 0
  for (;;) {
    const deleted = await pruneTelemetryBatch(db, cutoff, batch) + await connections.prune(db, cutoff, batch)
    total += deleted
    if (deleted === 0) return total
    await new Promise((resolve) => setImmediate(resolve))
  }
}

export interface TelemetryHousekeepingOptions extends TelemetryPruneOptions {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly everyMs?: number
  readonly firstAfterMs?: number
  readonly onError?: (error: unknown) => void
}

/** Telemetry pruning as a background job, away from the requests that write it. */
export function startTelemetryHousekeeping(options: TelemetryHousekeepingOptions): PeriodicJob<number> {
  return startPeriodicJob(() => pruneOldTelemetry(options.db, options.now(), options), {
    everyMs: options.everyMs ?? 10 * MINUTE_MS,
    firstAfterMs: options.firstAfterMs ?? MINUTE_MS,
    onError: options.onError
  })
}
