/**
 * Moves an installation from its embedded SQLite database to PostgreSQL: every app table's rows,
 * ids kept, into a PostgreSQL database (or schema) migrated to this version, in one transaction, so
 * the target ends either with all of them or as it was. The SQLite file is only ever read.
 */
import { mkdirSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import path from "node:path"
import { type Kysely, sql } from "kysely"
import { type Db, openDatabase } from "../db/database.ts"
import { migrateToLatest } from "../db/migrations.ts"
import type { Tables } from "../db/schema.ts"
import { BackupRefused, createBackup } from "./backups.ts"
import { CopyRefused, checkSourceFits, copyOrder, foreignKeys, type TargetTable, targetTables } from "./dbCopyPlan.ts"

// Kysely's bookkeeping belongs to each database's own migrations; table_versions is filled by
// them and stays at zero on PostgreSQL (it announces changes instead), while SQLite's counts mean
// nothing there. Rate-limit counters and job leases are transient: they describe the old server's
// last minutes and refill by themselves.
const MIGRATIONS_OWN = new Set(["kysely_migration", "kysely_migration_lock", "table_versions"])
const TRANSIENT = new Set(["rate_limits", "job_leases"])
// Made by the migrations themselves (the key that signs stream grants): the source's replaces the
// target's, so grants handed out before the move stay good, and it never makes a target "not empty".
const REPLACED = new Set(["server_keys"])

// PostgreSQL takes at most 65,535 parameters a statement; a batch stays well under it.
const MAX_PARAMETERS = 60_000
const MAX_BATCH_ROWS = 2_000

export interface CopyOptions {
  /** DATA_DIR: the SQLite database is its `app.db`. */
  readonly dataDir: string
  /** Where the snapshot of the source is made and removed again (BACKUP_DIR). */
  readonly scratchDir: string
  /** `postgres://…[?schema=NAME]`. */
  readonly targetUrl: string
  /** Empty the target's app tables first instead of refusing a target with rows. */
  readonly force: boolean
  /** A status line (starting with `\r`) as each table is copied. */
  readonly progress?: (text: string) => void
}

export interface CopyReport {
  readonly tables: ReadonlyArray<{ readonly name: string; readonly rows: number }>
  readonly skipped: ReadonlyArray<string>
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyReport> {
  mkdirSync(options.scratchDir, { recursive: true })
  const scratch = await mkdtemp(path.join(options.scratchDir, "db-copy-"))
  try {
    // The rows are read from an online backup rather than from the live file: the backup is one
    // consistent moment (what the WAL holds included) even if a server was left running, and it
    // can be migrated to this version's schema — the target's — without the source file being
    // written at all. It costs one copy of the database on disk, for the length of the command.
    try {
      await createBackup({ dataDir: options.dataDir, databaseUrl: undefined }, path.join(scratch, "app.db"))
    } catch (error) {
      if (error instanceof BackupRefused) throw new CopyRefused(error.message)
      throw error
    }
    const source = await openDatabase({ dataDir: scratch })
    try {
      await migrateToLatest(source)
      const target = await openTarget(options.targetUrl)
      try {
        return await copyInto(source, target, options)
      } finally {
        await target.close()
      }
    } finally {
      await source.close()
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

async function openTarget(url: string): Promise<Db> {
  let target: Db | undefined
  try {
    target = await openDatabase({ dataDir: "", databaseUrl: url })
    await migrateToLatest(target)
    return target
  } catch (error) {
    await target?.close()
    throw new CopyRefused(`cannot prepare the target database: ${messageOf(error)}`)
  }
}

async function copyInto(source: Db, target: Db, options: CopyOptions): Promise<CopyReport> {
  const tables = await targetTables(target.kysely)
  const copied = tables.filter((table) => !MIGRATIONS_OWN.has(table.name) && !TRANSIENT.has(table.name))
  await checkSourceFits(source.kysely, copied, tables)
  const ordered = copyOrder(copied, await foreignKeys(target.kysely))
  const counts = new Map<string, number>()
  for (const table of ordered) counts.set(table.name, await countRows(source.kysely, table.name))

  const report = await target.kysely.transaction().execute(async (trx) => {
    await makeRoom(trx, tables, copied, options.force)
    for (const table of ordered) {
      await copyTable(source.kysely, trx, table, counts.get(table.name) ?? 0, options.progress)
      await moveIdentityPast(trx, table)
    }
    // checked before the commit: a difference leaves the target as it was
    for (const table of ordered) {
      const found = await countRows(trx, table.name)
      if (found !== counts.get(table.name))
        throw new CopyRefused(`${table.name}: ${counts.get(table.name)} rows in SQLite but ${found} copied; nothing was kept`)
    }
    return ordered.map((table) => ({ name: table.name, rows: counts.get(table.name) ?? 0 }))
  })
  return { tables: report, skipped: tables.filter((table) => TRANSIENT.has(table.name)).map((table) => table.name) }
}

/** Refuses a target with rows unless `force`, which empties its app tables (in the copy's transaction). */
async function makeRoom(trx: Kysely<Tables>, all: ReadonlyArray<TargetTable>, copied: ReadonlyArray<TargetTable>, force: boolean) {
  const holding: Array<string> = []
  for (const table of copied) {
    if (REPLACED.has(table.name)) continue
    const { rows } = await sql<{ found: boolean }>`select exists (select 1 from ${sql.table(table.name)}) as found`.execute(trx)
    if (rows[0]?.found === true) holding.push(table.name)
  }
  if (holding.length > 0 && !force)
    throw new CopyRefused(
      `the target already has rows (in ${holding.join(", ")}): copy into an empty database or schema, ` +
        "or stop every server using it and add --force to empty its tables first; nothing was copied"
    )
  const emptied = force ? all.filter((table) => !MIGRATIONS_OWN.has(table.name)) : all.filter((table) => REPLACED.has(table.name))
  if (emptied.length > 0) await sql`truncate table ${sql.join(emptied.map((table) => sql.table(table.name)))}`.execute(trx)
}

async function copyTable(
  source: Kysely<Tables>,
  trx: Kysely<Tables>,
  table: TargetTable,
  total: number,
  progress: ((text: string) => void) | undefined
): Promise<void> {
  const batch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)))
  const columns = sql.join(table.columns.map((column) => sql.id(column.name)))
  let after = Number.MIN_SAFE_INTEGER
  let done = 0
  for (;;) {
    // by rowid: every app table has one, and paging on it reads each row once without offsets
    const { rows } = await sql<Record<string, unknown> & { copy_rowid: number }>`
      select rowid as copy_rowid, ${columns} from ${sql.table(table.name)}
      where rowid > ${after} order by rowid limit ${batch}`.execute(source)
    if (rows.length === 0) break
    const values = rows.map((row) => sql`(${sql.join(table.columns.map((column) => valueFor(row[column.name], column.type)))})`)
    try {
      await sql`insert into ${sql.table(table.name)} (${columns}) values ${sql.join(values)}`.execute(trx)
    } catch (error) {
      throw new CopyRefused(`copying ${table.name} failed: ${messageOf(error)}; nothing was kept`)
    }
    after = rows.at(-1)?.copy_rowid ?? after
    done += rows.length
    progress?.(`\rCopying ${table.name}: ${done} of ${total} rows`)
  }
}

// SQLite keeps booleans as 0/1 (the driver turns declared boolean columns back into booleans;
// this covers a value stored otherwise); everything else — text timestamps, numbers — is the same
// on both sides.
const valueFor = (value: unknown, type: string): unknown =>
  type === "boolean" && (typeof value === "number" || typeof value === "bigint") ? Number(value) !== 0 : value

/** New rows must not collide with copied ids: the identity continues after the largest one. */
async function moveIdentityPast(trx: Kysely<Tables>, table: TargetTable): Promise<void> {
  for (const column of table.columns.filter((c) => c.identity)) {
    await sql`select setval(
        pg_get_serial_sequence(format('%I.%I', current_schema(), ${table.name}::text), ${column.name}::text),
        coalesce((select max(${sql.id(column.name)}) from ${sql.table(table.name)}), 0) + 1,
        false)`.execute(trx)
  }
}

async function countRows(db: Kysely<Tables>, table: string): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)}`.execute(db)
  return Number(rows[0]?.count ?? 0)
}

const messageOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ""
  return `${message}${cause}`
}
