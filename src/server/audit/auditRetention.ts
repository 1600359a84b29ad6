import type { Kysely } from "kysely"
import { AUDIT_RETENTION_DAYS } from "../../domain/Audit.ts"
import type { Tables } from "../db/schema.ts"
import { type PeriodicJob, startPeriodicJob } from "../http/periodicJob.ts"
import { pruneAuditEntries } from "./auditRepo.ts"

const MINUTE_MS = 60 * 1000
const DAY_MS = 24 * 60 * MINUTE_MS
// a short statement at a time, so a year's backlog never holds the table for long
const BATCH = 2000

/** Removes the entries older than the retention as of `now` (epoch ms); answers how many went. */
export async function pruneAuditLog(db: Kysely<Tables>, now: number, retentionDays: number = AUDIT_RETENTION_DAYS): Promise<number> {
  const cutoff = new Date(now - retentionDays * DAY_MS).toISOString()
  let removed = 0
  for (;;) {
    const batch = await pruneAuditEntries(db, cutoff, BATCH)
    removed += batch
    if (batch < BATCH) return removed
  }
}

/**
 * Keeps the audit log to its retention: looked at every few hours, by the one instance holding
 * the job's lease. Entries are only ever a day or so past it, which nobody needs sooner.
 */
export function startAuditRetention(options: {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly everyMs?: number
  readonly firstAfterMs?: number
  readonly onDone?: (removed: number) => void
  readonly onError?: (error: unknown) => void
}): PeriodicJob<number> {
  return startPeriodicJob(() => pruneAuditLog(options.db, options.now()), {
    everyMs: options.everyMs ?? 6 * 60 * MINUTE_MS,
    firstAfterMs: options.firstAfterMs ?? 10 * MINUTE_MS,
    lease: { db: options.db, name: "audit-retention", now: options.now },
    ...(options.onDone === undefined ? {} : { onDone: options.onDone }),
    ...(options.onError === undefined ? {} : { onError: options.onError })
  })
}
