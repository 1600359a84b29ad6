import { randomBytes } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import pg from "pg"
import { type Db, type Dialect, openDatabase } from "../../src/server/db/database.ts"
import { migrateToLatest } from "../../src/server/db/migrations.ts"
import { WAIT_MS } from "./timeouts.ts"

// Every test gets its own database: a temp dir for SQLite, a private schema for PostgreSQL, so
// test files can run in parallel against one local server without seeing each other's rows.

export interface TestDatabase {
  db: Db
  /** A fresh temp dir, also for PostgreSQL (the server keeps other files there). */
  dataDir: string
  /** Set for PostgreSQL: opening it again reaches the same schema. */
  databaseUrl: string | undefined
  /** Closes the database and removes the temp dir and the schema. */
  dispose(): Promise<void>
}

export interface DialectHarness {
  name: Dialect
  /** A new empty database, migrated unless `migrate: false`. */
  create(options?: { migrate?: boolean }): Promise<TestDatabase>
}

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"

const sqlite: DialectHarness = {
  name: "sqlite",
  async create(options = {}) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "streamhub-db-"))
    const db = await openDatabase({ dataDir })
    return prepare(db, options, dataDir, undefined, async () => {
      await db.close()
      await rm(dataDir, { recursive: true, force: true })
    })
  }
}

const postgres: DialectHarness = {
  name: "postgres",
  async create(options = {}) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "streamhub-db-"))
    const schema = `t_${randomBytes(6).toString("hex")}`
    const url = new URL(POSTGRES_URL)
    url.searchParams.set("schema", schema)
    const databaseUrl = url.toString()
    const db = await openDatabase({ dataDir, databaseUrl })
    return prepare(db, options, dataDir, databaseUrl, async () => {
      await db.close()
      await withClient((client) => client.query(`drop schema if exists ${schema} cascade`))
      await rm(dataDir, { recursive: true, force: true })
    })
  }
}

async function prepare(
  db: Db,
  options: { migrate?: boolean },
  dataDir: string,
  databaseUrl: string | undefined,
  dispose: () => Promise<void>
): Promise<TestDatabase> {
  try {
    if (options.migrate ?? true) await migrateToLatest(db)
  } catch (error) {
    await dispose()
    throw error
  }
  return { db, dataDir, databaseUrl, dispose }
}

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: WAIT_MS })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

async function postgresAnswers(): Promise<string | undefined> {
  try {
    await withClient((client) => client.query("select 1"))
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

async function availableDialects(): Promise<DialectHarness[]> {
  const failure = await postgresAnswers()
  if (failure === undefined) return [sqlite, postgres]
  if (process.env.REQUIRE_POSTGRES === "1") {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${POSTGRES_URL} does not answer: ${failure}`)
  }
  console.warn(
    `PostgreSQL at ${POSTGRES_URL} does not answer (${failure}): PostgreSQL tests are SKIPPED. ` +
      "Set REQUIRE_POSTGRES=1 to make this an error."
  )
  return [sqlite]
}

/** For `describe.each(dialects)("$name", (dialect) => ...)`. */
export const dialects: DialectHarness[] = await availableDialects()
export const sqliteHarness: DialectHarness = sqlite
