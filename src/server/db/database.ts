import { mkdirSync } from "node:fs"
import path from "node:path"
import { Kysely, type Logger, SqliteDialect } from "kysely"
import type { Tables } from "./schema.ts"
import { openSqliteDatabase } from "./sqliteDriver.ts"
import type { WatchedTable } from "./tableChanges.ts"

export type Dialect = "sqlite" | "postgres"

export interface Db {
  readonly kysely: Kysely<Tables>
  readonly dialect: Dialect
  /**
   * A number that moves whenever `table` changes, from this process or any other: while it
   * answers the same, what was read of the table since it first gave that answer is still
   * current. Undefined when that cannot be known; the caller then reads the table. On SQLite it
   * moves with the commit itself (undefined inside a transaction on this connection). On
   * PostgreSQL another process's change moves it when its notification arrives, milliseconds
   * after the commit; undefined until the listening connection, opened on the first call, is up,
   * and whenever it is down.
   */
  tableVersion(table: WatchedTable): number | undefined
  /** Calls `listener` with each statement's time (seconds) and kind, until the answer is called. */
  onQuery(listener: QueryListener): () => void
  close(): Promise<void>
}

/** A statement's time in seconds and its kind: select, insert, update, delete, with or other. */
export type QueryListener = (seconds: number, statement: string) => void

const STATEMENTS: ReadonlySet<string> = new Set(["select", "insert", "update", "delete", "with"])

/**
 * Statement timings for whoever listens (the metrics), from Kysely's own log of every query it
 * runs, prepared ones included; nothing is measured while nobody listens.
 */
export function queryTimings(): { readonly log: Logger; readonly onQuery: Db["onQuery"] } {
  const listeners = new Set<QueryListener>()
  return {
    log: (event) => {
      if (listeners.size === 0) return
      const first = /^\s*(\w+)/.exec(event.query.sql)?.[1]?.toLowerCase() ?? ""
      const statement = STATEMENTS.has(first) ? first : "other"
      for (const listener of listeners) listener(event.queryDurationMillis / 1000, statement)
    },
    onQuery: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}

export interface OpenDatabaseOptions {
  /** SQLite lives at `<dataDir>/app.db`; ignored when `databaseUrl` is set. */
  dataDir: string
  /** A `postgres://` URL; `?schema=NAME` confines every connection to that schema. */
  databaseUrl?: string | undefined
}

/** Opens the database; the caller still runs `migrateToLatest(db)` before using it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  // PostgreSQL's client loads only for a server that uses it
  if (options.databaseUrl) return (await import("./postgres.ts")).openPostgres(options.databaseUrl)
  mkdirSync(options.dataDir, { recursive: true })
  const database = openSqliteDatabase(path.join(options.dataDir, "app.db"))
  const timings = queryTimings()
  const kysely = new Kysely<Tables>({ dialect: new SqliteDialect({ database }), log: timings.log })
  const close = async () => {
    await kysely.destroy()
    database.close()
  }
  return {
    kysely,
    dialect: "sqlite",
    tableVersion: (table) => database.tableVersion(table),
    onQuery: timings.onQuery,
    close: once(close)
  }
}

// Shutdown paths overlap (signal handler, test teardown); closing twice must not throw.
export function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined
  return () => (closing ??= close())
}

/** True when `error` is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false
  const { code, errcode } = error as { code?: unknown; errcode?: unknown }
  const SQLITE_CONSTRAINT_UNIQUE = 2067
  const SQLITE_CONSTRAINT_PRIMARYKEY = 1555
  const PG_UNIQUE_VIOLATION = "23505"
  return code === PG_UNIQUE_VIOLATION || errcode === SQLITE_CONSTRAINT_UNIQUE || errcode === SQLITE_CONSTRAINT_PRIMARYKEY
}

/**
 * Runs `work` atomically: in a new transaction, or inside the caller's when `db` already is one,
 * so repository functions compose into larger units of work.
 */
export async function inTransaction<T>(db: Kysely<Tables>, work: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work)
}
