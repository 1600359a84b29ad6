import { type Kysely, sql } from "kysely"
import type { Db } from "./database.ts"
import type { Tables } from "./schema.ts"

// Advisory locks take one bigint key or two int4 keys, and the two forms never collide: Kysely's
// migrator uses a single bigint, this lock the pair (this app's tag, the schema's hash). Keyed by
// schema because several schemas can share one database (tests, shared servers) and have nothing
// to wait for from one another; advisory locks are already per database.
const APP_TAG = 0x53_48_53_54 // "SHST"
const lockKey = sql`${sql.lit(APP_TAG)}, hashtext(coalesce(current_schema(), ''))`

export interface StartupLockOptions {
  /** Called when another instance holds the lock, before waiting for it. */
  readonly onWait?: () => void
}

/**
 * Runs `work` (migrating, first-start seeding) while no other instance on the same PostgreSQL
 * schema runs its own, so instances started together do it once between them and the later ones
 * find it done. `work` uses the pool as usual; the lock lives in a transaction of its own on one
 * dedicated connection, so it ends with that transaction, whether `work` succeeds or throws, and
 * with the session should the process die. SQLite serves one instance: nothing to wait for.
 */
export async function withStartupLock<T>(db: Db, work: () => Promise<T>, options: StartupLockOptions = {}): Promise<T> {
  if (db.dialect !== "postgres") return work()
  return db.kysely.transaction().execute(async (lockHolder) => {
    await acquire(lockHolder, options)
    return work()
  })
}

async function acquire(trx: Kysely<Tables>, options: StartupLockOptions): Promise<void> {
  const tried = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${lockKey}) as locked`.execute(trx)
  if (tried.rows[0]?.locked === true) return
  options.onWait?.()
  // A server-wide lock or statement timeout would turn a peer's long migration into a failed
  // start; wait it out (`true`: for this transaction only).
  await sql`select set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)`.execute(trx)
  await sql`select pg_advisory_xact_lock(${lockKey})`.execute(trx)
}
