import { type Kysely, sql } from "kysely"
import type { Tables } from "../db/schema.ts"

/** One thing an instance needs to serve, and whether it has it. */
export interface ReadinessCheck {
  readonly name: "database" | "migrations"
  readonly ok: boolean
  readonly detail: string
}

// a database slower than this to answer `select 1` counts as away
const DATABASE_TIMEOUT_MS = 2000

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

/** Whether the database answers, and whether its schema is the one this build was written for. */
export async function readiness(db: Kysely<Tables>, knownMigrations: ReadonlyArray<string>): Promise<Array<ReadinessCheck>> {
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
      { name: "migrations", ok: false, detail: "unknown while the database does not answer" }
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
  return [{ name: "database", ok: true, detail: "answers" }, migrations]
}
