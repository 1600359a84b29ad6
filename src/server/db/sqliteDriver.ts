import { chmodSync, closeSync, existsSync, openSync } from "node:fs"
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite"
import type { SqliteDatabase, SqliteStatement } from "kysely"

// Kysely's SqliteDialect speaks to a better-sqlite3-shaped object; node:sqlite is built in and
// needs no native build, so this adapter bridges the two.

/** The database as Kysely uses it, and the one read that goes around Kysely. */
export interface SqliteConnection extends SqliteDatabase {
  /**
   * How many times `table` has changed, as migration 0012's triggers count it; undefined while a
   * transaction is open on this connection (its count may yet roll back, and its snapshot may
   * predate another process's commit) or before that migration has run.
   */
  readonly tableVersion: (table: string) => number | undefined
}

/**
 * Opens (creating if needed) an SQLite file tuned for durability: WAL so readers never block the
 * writer, synchronous=FULL so a committed write survives power loss, not just a process crash.
 */
export function openSqliteDatabase(file: string): SqliteConnection {
  // The file holds every account: only the server's own user may read it. SQLite gives its WAL
  // and shared-memory files the database file's permissions.
  closeSync(openSync(file, "a", 0o600))
  for (const own of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(own)) chmodSync(own, 0o600)
  }
  const db = new DatabaseSync(file)
  // busy_timeout first: switching to WAL needs a lock another process may briefly hold.
  db.exec("PRAGMA busy_timeout=5000")
  turnOnIncrementalVacuum(db)
  db.exec("PRAGMA journal_mode=WAL")
  db.exec("PRAGMA synchronous=FULL")
  db.exec("PRAGMA foreign_keys=ON")
  // Kysely prepares every query it runs; preparing costs more than running most of ours, and the
  // app issues a few dozen distinct statements, so each is prepared once and kept.
  const statements = new Map<string, SqliteStatement>()
  // Asked on every request that might answer from memory: one indexed read straight from the
  // driver, without Kysely's query building, mutex and promise. Even so, each read opens a read
  // transaction on the WAL (file locks, system calls), so the answer is kept for a moment: any
  // write on this connection forgets it at once, and another process's commit is seen within
  // VERSION_RECHECK_MS.
  let versionOf: StatementSync | undefined
  const versions = new Map<string, { readonly value: number | undefined; readonly at: number }>()
  const wrote = () => versions.clear()
  // A statement keeps the column names it was prepared with; SQLite prepares it again after a
  // schema change, but the names read here would stay those of before: a change to the schema
  // forgets every prepared statement.
  const changedSchema = () => {
    wrote()
    statements.clear()
  }
  const onWriteOf = (sql: string): (() => void) | undefined =>
    /^\s*select\b/i.test(sql) ? undefined : /^\s*(?:create|alter|drop)\b/i.test(sql) ? changedSchema : wrote
  return {
    tableVersion: (table) => {
      if (!db.isOpen || db.isTransaction) return undefined
      const now = performance.now()
      const known = versions.get(table)
      if (known !== undefined && now - known.at < VERSION_RECHECK_MS) return known.value
      try {
        versionOf ??= db.prepare("select version from table_versions where name = ?")
        const row = versionOf.get(table) as { version: number } | undefined
        versions.set(table, { value: row?.version, at: now })
        return row?.version
      } catch {
        // not migrated yet, or the file unreadable: the caller reads the table itself, which tells
        return undefined
      }
    },
    prepare: (text) => {
      // Kysely opens a transaction with a bare `begin`, which takes the write lock only at the
      // first write. If another process (the operator CLI, or the server while the CLI runs)
      // commits in between, that write fails at once with "database is locked", busy_timeout or
      // not. `begin immediate` takes the lock first, waiting for it as busy_timeout allows.
      const sql = /^\s*begin\s*$/i.test(text) ? "begin immediate" : text
      let statement = statements.get(sql)
      if (statement === undefined) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear()
        // anything but a plain select may change a table (an insert, a trigger's update, a pragma)
        statement = adaptStatement(db.prepare(sql), onWriteOf(sql), STEPPED.test(sql))
        statements.set(sql, statement)
      }
      return statement
    },
    // Kysely closes only a database it has used; the owner closes it too, so a second call is normal.
    close: () => {
      if (db.isOpen) db.close()
    }
  }
}

/**
 * Pages freed by deleted rows go back to the file system when housekeeping asks (`reclaimFreePages`),
 * instead of staying in the file for good. A new file takes the mode at once; a file made before
 * is rebuilt once (VACUUM, as long as a copy of the database takes), and if another process holds
 * it just then, the next start tries again.
 */
function turnOnIncrementalVacuum(db: DatabaseSync): void {
  const { auto_vacuum: mode } = db.prepare("PRAGMA auto_vacuum").get() as { auto_vacuum: number }
  if (mode === INCREMENTAL) return
  db.exec("PRAGMA auto_vacuum=INCREMENTAL")
  const { page_count: pages } = db.prepare("PRAGMA page_count").get() as { page_count: number }
  if (pages === 0) return
  try {
    db.exec("VACUUM")
  } catch {
    // busy: served as it is, converted at a later start
  }
}
const INCREMENTAL = 2

// Far above the app's own statements; ad-hoc CLI or report queries cannot grow the cache forever.
const STATEMENT_CACHE_SIZE = 500
/** How long a table's version read on this connection stands, unless this connection writes. */
const VERSION_RECHECK_MS = 50

/** Statements that do one unit of work per step and return no rows: run to their end, not one step. */
const STEPPED = /^\s*pragma\s+incremental_vacuum\b/i

function adaptStatement(stmt: StatementSync, onWrite?: () => void, stepped = false): SqliteStatement {
  const columns = stmt.columns()
  const names = columns.map((column) => column.name)
  // SQLite has no boolean type: columns declared `boolean` hold 0/1. Mapping them back here, by
  // declared type, keeps every query (not just the repositories) returning real booleans, the
  // same as PostgreSQL does.
  const booleans = columns.map((column) => column.type?.toLowerCase() === "boolean")
  // node:sqlite builds a row object as a dictionary, slow to make and to read; as an array it
  // comes faster, and the objects built here share one shape across every row of a statement.
  stmt.setReturnArrays(true)
  const toRow = (values: ReadonlyArray<unknown>): Record<string, unknown> => {
    const row: Record<string, unknown> = {}
    for (let index = 0; index < names.length; index += 1) {
      const value = values[index]
      row[names[index] as string] =
        booleans[index] === true && (typeof value === "number" || typeof value === "bigint") ? value !== 0 && value !== 0n : value
    }
    return row
  }
  return {
    reader: columns.length > 0,
    all: (parameters) => {
      onWrite?.()
      return (stmt.all(...toInputs(parameters)) as unknown as Array<ReadonlyArray<unknown>>).map(toRow)
    },
    run: (parameters) => {
      onWrite?.()
      if (!stepped) return stmt.run(...toInputs(parameters))
      stmt.all(...toInputs(parameters))
      return { changes: 0, lastInsertRowid: 0 }
    },
    *iterate(parameters) {
      onWrite?.()
      for (const values of stmt.iterate(...toInputs(parameters))) yield toRow(values as unknown as ReadonlyArray<unknown>)
    }
  }
}

function toInputs(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map(toInput)
}

function toInput(value: unknown): SQLInputValue {
  if (typeof value === "boolean") return value ? 1 : 0
  if (value instanceof Date) return value.toISOString()
  return value as SQLInputValue
}
