import type { Kysely } from "kysely"
import { connections } from "../connections/connectionsFeature.ts"
import { reclaimFreePages } from "../db/freePages.ts"
import type { Tables } from "../db/schema.ts"
import { type PeriodicJob, startPeriodicJob } from "../http/periodicJob.ts"
import { healthIdBeyond, pruneHealthUpTo, pruneTelemetryBatch } from "./telemetryRepo.ts"

export const TELEMETRY_RETENTION_DAYS = 30
/**
 * Health records kept at most, whatever their age: a few days of a busy install, some hundred
 * megabytes at their largest. The oldest go first.
 */
export const HEALTH_ROW_BUDGET = 300_000
const MINUTE_MS = 60 * 1000
const DAY_MS = 24 * 60 * MINUTE_MS

export interface TelemetryPruneOptions {
  readonly retentionMs?: number
  /** Rows per table and statement. */
  readonly batch?: number
  /** Health records kept at most (HEALTH_ROW_BUDGET unless given). */
  readonly healthRowBudget?: number
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Deletes telemetry and connections older than the retention, a batch at a time, handing the
 * event loop back between batches so a large backlog never holds requests up.
 */
export async function pruneOldTelemetry(db: Kysely<Tables>, now: number, options: TelemetryPruneOptions = {}): Promise<number> {
  const cutoff = new Date(now - (options.retentionMs ?? TELEMETRY_RETENTION_DAYS * DAY_MS)).toISOString()
  const batch = options.batch ?? 2000
  let total = 0
  for (;;) {
    const deleted = (await pruneTelemetryBatch(db, cutoff, batch)) + (await connections.prune(db, cutoff, batch))
    total += deleted
    if (deleted === 0) return total
    await nextTurn()
  }
}

/**
 * Deletes the oldest health records beyond the budget, and the networks refused longest ago
 * beyond theirs, a batch at a time; answers how many went. Records arriving meanwhile are newer
 * than any it deletes, so the newest are always kept.
 */
export async function pruneHealthOverBudget(db: Kysely<Tables>, options: TelemetryPruneOptions = {}): Promise<number> {
  const batch = options.batch ?? 2000
  let total = 0
  for (;;) {
    const deleted = await connections.pruneOverBudget(db, batch)
    total += deleted
    if (deleted < batch) break
    await nextTurn()
  }
  const lastId = await healthIdBeyond(db, options.healthRowBudget ?? HEALTH_ROW_BUDGET)
  if (lastId === undefined) return total
  for (;;) {
    const deleted = await pruneHealthUpTo(db, lastId, batch)
    total += deleted
    if (deleted < batch) return total
    await nextTurn()
  }
}

export interface TelemetryHousekeepingOptions extends TelemetryPruneOptions {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly everyMs?: number
  readonly firstAfterMs?: number
  readonly onError?: (error: unknown) => void
}

/**
 * Telemetry pruning by age and by the budgets, as a background job away from the requests that
 * write it; the space the rows took goes back to the file system.
 */
export function startTelemetryHousekeeping(options: TelemetryHousekeepingOptions): PeriodicJob<number> {
  const prune = async () => {
    const pruned = (await pruneOldTelemetry(options.db, options.now(), options)) + (await pruneHealthOverBudget(options.db, options))
    await reclaimFreePages(options.db)
    return pruned
  }
  return startPeriodicJob(prune, {
    everyMs: options.everyMs ?? 10 * MINUTE_MS,
    firstAfterMs: options.firstAfterMs ?? MINUTE_MS,
    onError: options.onError,
    lease: { db: options.db, name: "telemetry-housekeeping", now: options.now }
  })
}
