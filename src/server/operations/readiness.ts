import { type Kysely, sql } from "kysely"
import { leasesRunOut } from "../db/jobLease.ts"
import type { Tables } from "../db/schema.ts"

/** One thing an instance needs to serve, and whether it has it. */
export interface ReadinessCheck {
  readonly name: "database" | "migrations" | "leases"
  readonly ok: boolean
  readonly detail: string
}

// a database slower than this to answer `select 1` counts as away
const DATABASE_TIMEOUT_MS = 2000
/**
 * A lease of this instance (a background job's, a feed's) overdue by this much was not renewed:
 * the job or feed stopped keeping it, and another instance may be running it as well.
 */
export const LEASE_OVERDUE_MS = 60 * 1000

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)
    work.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })

/**
 * Whether the database answers, whether its schema is the one this build was written for, and
 * whether this instance still holds the leases of the jobs and feeds it runs.
 */
export async function readiness(db: Kysely<Tables>, knownMigrations: ReadonlyArray<string>, now: number): Promise<Array<ReadinessCheck>> {
  let applied: Array<string>
  try {
    const result = await withTimeout(
      sql<{ name: string }>`select name from kysely_migration order by name`.execute(db),
      DATABASE_TIMEOUT_MS
    )
    applied = result.rows.map((row) => row.name)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return [
      { name: "database", ok: false, detail: `the database does not answer: ${reason}` },
      { name: "migrations", ok: false, detail: "unknown while the database does not answer" },
      { name: "leases", ok: false, detail: "unknown while the database does not answer" }
    ]
  }
  const missing = knownMigrations.filter((name) => !applied.includes(name))
  const unknown = applied.filter((name) => !knownMigrations.includes(name))
  const migrations: ReadinessCheck =
    missing.length > 0
      ? { name: "migrations", ok: false, detail: `not run yet: ${missing.join(", ")}` }
      : unknown.length > 0
        ? { name: "migrations", ok: false, detail: `the database is newer than this version (${unknown.at(-1)})` }
        : { name: "migrations", ok: true, detail: `up to date (${knownMigrations.at(-1)})` }
  return [{ name: "database", ok: true, detail: "answers" }, migrations, await leases(db, now)]
}

async function leases(db: Kysely<Tables>, now: number): Promise<ReadinessCheck> {
  try {
    const overdue = await withTimeout(leasesRunOut(db, now - LEASE_OVERDUE_MS), DATABASE_TIMEOUT_MS)
    if (overdue.length === 0) return { name: "leases", ok: true, detail: "every job and feed of this instance keeps its lease" }
    return { name: "leases", ok: false, detail: `not renewed for over a minute: ${overdue.join(", ")}` }
  } catch (error) {
    // no job_leases before its migration: that check already says so
    return { name: "leases", ok: false, detail: `unknown: ${error instanceof Error ? error.message : String(error)}` }
  }
}
