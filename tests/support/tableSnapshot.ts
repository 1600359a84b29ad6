import { sql } from "kysely"
import type { Db } from "../../src/server/db/database.ts"

/** Every row of every table but `except`, per table as sorted JSON lines: equal snapshots hold the same data. */
export type TableSnapshot = Record<string, ReadonlyArray<string>>

/**
 * Tables written whatever a request's outcome, so not the data a refused request must leave alone:
 * rate-limit and lockout counters count every request, refused ones above all (that is what they
 * are for), and background jobs take and renew their leases on their own timers.
 */
export const NOT_COMPARED: ReadonlySet<string> = new Set(["rate_limits", "job_leases"])

/** The names of the database's own tables (on PostgreSQL, those of the schema it works in). */
export async function tableNames(db: Db): Promise<ReadonlyArray<string>> {
  const query =
    db.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{
          name: string
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`
  const { rows } = await query.execute(db.kysely)
  return rows.map((row) => row.name).sort()
}

export async function tableSnapshot(db: Db, except: ReadonlySet<string> = new Set()): Promise<TableSnapshot> {
  const snapshot: Record<string, ReadonlyArray<string>> = {}
  for (const name of await tableNames(db)) {
    if (except.has(name)) continue
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db.kysely)
    // row order is not kept by an update on PostgreSQL; the rows themselves are what counts
    snapshot[name] = rows
      .map((row) => JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value)))
      .sort()
  }
  return snapshot
}
