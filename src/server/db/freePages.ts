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
