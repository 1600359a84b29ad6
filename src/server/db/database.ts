import { mkdirSync } from "node:fs"
import path from "node:path"
import { Kysely, PostgresDialect, SqliteDialect } from "kysely"
import pg from "pg"
import type { Tables } from "./schema.ts"
import { openSqliteDatabase } from "./sqliteDriver.ts"
import { countOwnWrites, listenForTableChanges, type WatchedTable } from "./tableChanges.ts"

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
  close(): Promise<void>
}

export interface OpenDatabaseOptions {
  /** SQLite lives at `<dataDir>/app.db`; ignored when `databaseUrl` is set. */
  dataDir: string
  /** A `postgres://` URL; `?schema=NAME` confines every connection to that schema. */
  databaseUrl?: string | undefined
}

/** Opens the database; the caller still runs `migrateToLatest(db)` before using it. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl)
  mkdirSync(options.dataDir, { recursive: true })
  const database = openSqliteDatabase(path.join(options.dataDir, "app.db"))
  const kysely = new Kysely<Tables>({ dialect: new SqliteDialect({ database }) })
  const close = async () => {
    await kysely.destroy()
    database.close()
  }
  return { kysely, dialect: "sqlite", tableVersion: (table) => database.tableVersion(table), close: once(close) }
}

// Shutdown paths overlap (signal handler, test teardown); closing twice must not throw.
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined
  return () => (closing ??= close())
}

// Lower-case only: PostgreSQL folds unquoted identifiers, so anything else would name one schema
// in `search_path` and another in `create schema`.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

async function openPostgres(databaseUrl: string): Promise<Db> {
  const { connectionString, schema } = splitSchema(databaseUrl)
  // Set at connection startup, so no query can ever run against the wrong schema.
  const options = schema ? `-c search_path=${schema}` : undefined
  const pool = new pg.Pool({ connectionString, types: pgTypes(), ...(options === undefined ? {} : { options }) })
  // An idle client losing its server emits on the pool; unheard, that would crash the process.
  pool.on("error", (error) => console.warn(`database: idle connection failed: ${error.message}`))
  try {
    if (schema) await createSchema(pool, schema)
  } catch (error) {
    await pool.end()
    throw error
  }
  // the schema in its name lets one server's listener be told from another's on a shared database
  const changes = listenForTableChanges({ connectionString, options, applicationName: `streamhub changes ${schema ?? "(default schema)"}` })
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), plugins: [countOwnWrites(changes)] })
  const close = async () => {
    await changes.close()
    await kysely.destroy()
    // Kysely ends only a pool it has used; an unused pool would hold the process open.
    if (!pool.ending && !pool.ended) await pool.end()
  }
  return { kysely, dialect: "postgres", tableVersion: changes.version, close: once(close) }
}

function splitSchema(databaseUrl: string): { connectionString: string; schema?: string } {
  const url = new URL(databaseUrl)
  const schema = url.searchParams.get("schema")
  if (schema === null) return { connectionString: databaseUrl }
  if (!SCHEMA_NAME.test(schema)) throw new Error(`DATABASE_URL: invalid schema name "${schema}"`)
  url.searchParams.delete("schema")
  return { connectionString: url.toString(), schema }
}

async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`create schema if not exists ${schema}`)
  } catch (error) {
    // Two processes creating the same schema race on the catalogue despite `if not exists`.
    const found = await pool.query("select 1 from pg_namespace where nspname = $1", [schema])
    if (found.rowCount === 0) throw error
  }
}

/**
 * pg hands back int8 (every `count(*)`, `sum` of integers) and numeric (`avg`, `sum` of reals) as
 * strings to avoid precision loss; SQLite gives numbers. Our counts and money fit a double, so
 * this is the one place both dialects are made to agree.
 */
function pgTypes(): pg.TypeOverrides {
  const types = new pg.TypeOverrides()
  const INT8 = 20
  const NUMERIC = 1700
  types.setTypeParser(INT8, (value: string) => Number(value))
  types.setTypeParser(NUMERIC, (value: string) => Number(value))
  return types
}

/** True when `error` is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false
  const { code, errcode } = error as { code?: unknown; errcode?: unknown }
  const SQLITE_CONSTRAINT_UNIQUE = 2067
  const SQLITE_CONSTRAINT_PRIMARYKEY = 1555
  const PG_UNIQUE_VIOLATION = "23505"
  return code === PG_UNIQUE_VIOLATION || errcode === SQLITE_CONSTRAINT_UNIQUE ||
    errcode === SQLITE_CONSTRAINT_PRIMARYKEY
}

/**
 * Runs `work` atomically: in a new transaction, or inside the caller's when `db` already is one,
 * so repository functions compose into larger units of work.
 */
export async function inTransaction<T>(db: Kysely<Tables>, work: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work)
}
