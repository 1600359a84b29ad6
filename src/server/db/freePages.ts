import { type Kysely, SqliteAdapter, sql } from "kysely"
import type { Tables } from "./schema.ts"

/** Pages handed back per statement: 4 MB of 4 KB pages, a few milliseconds of the writer's time. */
const PAGES_PER_STEP = 1024

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Gives the pages that pruning freed back to the file system, a step at a time, so the SQLite
 * file shrinks after a flood is pruned (the file is in incremental auto-vacuum mode, see
 * sqliteDriver.ts). PostgreSQL's autovacuum does the same there: nothing to do. Answers how many
 * pages went.
 */
export async function reclaimFreePages(db: Kysely<Tables>): Promise<number> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return 0
  let total = 0
  let before = Number.POSITIVE_INFINITY
  for (;;) {
    const { rows } = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db)
    const free = Number(rows[0]?.freelist_count ?? 0)
    // none left, or none that can go (a file not yet in incremental mode)
    if (free === 0 || free >= before) return total
    before = free
    await sql.raw(`pragma incremental_vacuum(${PAGES_PER_STEP})`).execute(db)
    total += Math.min(free, PAGES_PER_STEP)
    await nextTurn()
  }
}

/**
 * What is wrong with PostgreSQL's autovacuum for this service, or undefined when nothing is:
 * without it (or without the statistics it works from) the rows pruned every few minutes leave
 * dead space that is never reused, and the database grows without bound.
 */
export function autovacuumProblem(settings: Readonly<Record<string, string>>): string | undefined {
  const off = ["autovacuum", "track_counts"].filter((name) => settings[name] === "off")
  if (off.length === 0) return undefined
  return (
    `PostgreSQL's ${off.map((name) => `${name} is off`).join(" and ")}: the space of pruned rows is never reused and the ` +
    `database keeps growing. Turn ${off.length === 1 ? "it" : "them"} on in postgresql.conf (the default) and reload.`
  )
}

/** Reads the settings autovacuum depends on; undefined on SQLite, which gives space back itself. */
export async function autovacuumWarning(db: Kysely<Tables>): Promise<string | undefined> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return undefined
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings where name in ('autovacuum', 'track_counts')`.execute(db)
  return autovacuumProblem(Object.fromEntries(rows.map((row) => [row.name, row.setting])))
}
