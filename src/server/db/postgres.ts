import { Kysely, PostgresDialect } from "kysely"
import pg from "pg"
import { type Db, once, queryTimings } from "./database.ts"
import type { Tables } from "./schema.ts"
import { countOwnWrites, listenForTableChanges } from "./tableChanges.ts"

// The PostgreSQL side of openDatabase, in a module of its own so a server on SQLite never loads
// the client library.

// Lower-case only: PostgreSQL folds unquoted identifiers, so anything else would name one schema
// in `search_path` and another in `create schema`.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

export async function openPostgres(databaseUrl: string): Promise<Db> {
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
  const timings = queryTimings()
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), plugins: [countOwnWrites(changes)], log: timings.log })
  const close = async () => {
    await changes.close()
    await kysely.destroy()
    // Kysely ends only a pool it has used; an unused pool would hold the process open.
    if (!pool.ending && !pool.ended) await pool.end()
  }
  return { kysely, dialect: "postgres", tableVersion: changes.version, onQuery: timings.onQuery, close: once(close) }
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
