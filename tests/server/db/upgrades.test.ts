import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { type RawBuilder, sql } from "kysely"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Db, Dialect } from "../../../src/server/db/database.ts"
import { migrateToLatest, migrations } from "../../../src/server/db/migrations.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

// Databases as older commits left them (tests/fixtures/upgrades/<date>-<commit>/, made by make.ts
// there) are loaded as they were, bookkeeping tables included, and migrated by today's code: the
// schema must come out as a fresh database's, and every row they held must still be there, with
// the same values in the columns that still exist.

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "upgrades")

interface Manifest {
  commit: string
  date: string
  subject: string
  /** What that commit's migrateToLatest ran on an empty database. */
  migrations: string[]
  /** The schema postgres.sql was dumped from; renamed to the test's own when loaded. */
  postgresSchema: string
  rows: Record<Dialect, Record<string, number>>
}

const fixtures = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()
  .map((name) => ({ name, manifest: JSON.parse(readFileSync(join(FIXTURES, name, "manifest.json"), "utf8")) as Manifest }))

/** Rows a migration deliberately does not keep: checked only where that migration ran in the upgrade. */
const DISCARDED: Array<{ migration: string; table: string }> = [
  // the connections became player sessions; the old rows were keyed by address, live for two
  // minutes at most, and the table starts afresh (see the migration)
  { migration: "0009_live_connections", table: "player_connections" }
]

describe("upgrade fixtures", () => {
  it("cover every set of migrations up to the newest fixture's, and the early 0009 that lacked stream_qoe_samples", () => {
    const today = Object.keys(migrations("sqlite"))
    const sets = new Set(fixtures.map((f) => f.manifest.migrations.join(",")))
    const newest = Math.max(...fixtures.map((f) => f.manifest.migrations.length))
    const first = Math.min(...fixtures.map((f) => f.manifest.migrations.length))
    const missing: string[] = []
    for (let n = first; n <= newest; n++) if (!sets.has(today.slice(0, n).join(","))) missing.push(today[n - 1] ?? `#${n}`)
    expect(missing, "sets of migrations no fixture was made at").toEqual([])
    expect(fixtures.map((f) => f.manifest.commit.slice(0, 7))).toContain("73dc182")
  })
})

describe.each(dialects)("upgrading older commits' databases on $name", (dialect) => {
  let fresh: TestDatabase
  let freshSchema: Schema
  beforeAll(async () => {
    fresh = await dialect.create()
    freshSchema = await describeSchema(fresh.db)
  })
  afterAll(() => fresh?.dispose())

  it.each(fixtures)("$name: migrates to today's schema and keeps every row", async ({ name, manifest }) => {
    const old = await dialect.create({ migrate: false })
    try {
      await load(old, name, manifest)
      const before = await readRows(old.db, "before")
      // loaded as that commit left it
      expect((before.kysely_migration ?? []).map((row) => row.name)).toEqual(manifest.migrations)
      expect(rowCounts(before)).toEqual(manifest.rows[dialect.name])

      const pending = Object.keys(migrations(dialect.name)).filter((m) => !manifest.migrations.includes(m))
      expect(await migrate(old.db)).toEqual(pending)

      expect(await describeSchema(old.db)).toEqual(freshSchema)
      const after = await readRows(old.db, "after")
      const problems: string[] = []
      for (const [table, rows] of Object.entries(before)) {
        if (DISCARDED.some((d) => d.table === table && pending.includes(d.migration))) continue
        problems.push(...compareRows(table, rows, after[table], freshSchema[table]))
      }
      expect(problems, "rows lost or changed by the upgrade").toEqual([])
      if (pending.includes("0007_rewards_payments_tickets")) {
        // 0007 turned the accounts' reward points into a ledger: each account's entries add up to what it had
        const points = (user: Row) =>
          (after.reward_ledger ?? []).filter((e) => e.user_id === user.id).reduce((sum, e) => sum + Number(e.points), 0)
        const users = before.users ?? []
        expect(users.map(points)).toEqual(users.map((user) => user.reward_points))
      }
    } finally {
      await old.dispose()
    }
  })
})

// Migrating

/**
 * Today's migrateToLatest, tried again where another schema of the PostgreSQL database changed
 * under Kysely's look at every table before anything ran: migrateToLatest itself tries again when a
 * schema or table vanished (3F000, 42P01), not when a column did (42703, from pg_get_serial_sequence),
 * which every fresh database's 0007 (dropping users.reward_points) in a parallel test may cause.
 */
async function migrate(db: Db): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateToLatest(db)
    } catch (error) {
      if (attempt >= 3 || !columnVanished(error)) throw error
    }
  }
}

function columnVanished(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const { code, routine } = e as { code?: unknown; routine?: unknown }
    if (code === "42703" && routine === "pg_get_serial_sequence") return true
  }
  return false
}

// Loading

async function load(test: TestDatabase, fixture: string, manifest: Manifest): Promise<void> {
  if (test.db.dialect === "sqlite") {
    // a connection of its own: the dump is a script, Kysely runs one statement at a time
    const file = new DatabaseSync(join(test.dataDir, "app.db"))
    try {
      file.exec(readFileSync(join(FIXTURES, fixture, "sqlite.sql"), "utf8"))
    } finally {
      file.close()
    }
    return
  }
  const url = new URL(test.databaseUrl ?? "")
  const schema = url.searchParams.get("schema")
  if (!schema) throw new Error("a PostgreSQL test database has a schema of its own")
  url.searchParams.delete("schema")
  const script = readFileSync(join(FIXTURES, fixture, "postgres.sql"), "utf8")
    .split("\n")
    // comments, psql's own commands (\restrict), and the schema: the harness has made it already
    .filter((line) => !line.startsWith("--") && !line.startsWith("\\") && line !== `CREATE SCHEMA ${manifest.postgresSchema};`)
    .join("\n")
    .replaceAll(`${manifest.postgresSchema}.`, `${schema}.`)
  if (script.includes(manifest.postgresSchema)) throw new Error(`${fixture}: the dump names its schema where it cannot be renamed`)
  // a client of its own: the dump empties its session's search_path
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  try {
    await client.query(script)
  } finally {
    await client.end()
  }
}

// Schema: tables, their columns, indexes, constraints and triggers, as the database reports them

interface TableShape {
  columns: Array<{ name: string }>
  primaryKey: string[]
  other: unknown[]
}
type Schema = Record<string, TableShape>

async function describeSchema(db: Db): Promise<Schema> {
  return db.dialect === "sqlite" ? describeSqlite(db) : describePostgres(db)
}

async function rows<T>(db: Db, query: RawBuilder<T>): Promise<T[]> {
  return (await query.execute(db.kysely)).rows
}

/** `items` by their `table`, in their order, without it. */
function byTable<T extends { table: string }>(items: T[]): Map<string, Array<Omit<T, "table">>> {
  const result = new Map<string, Array<Omit<T, "table">>>()
  for (const { table, ...rest } of items) result.set(table, [...(result.get(table) ?? []), rest])
  return result
}

async function describeSqlite(db: Db): Promise<Schema> {
  const tables = sql`(select name from sqlite_master where type = 'table' and name not like 'sqlite_%')`
  const columns = byTable(
    await rows<{ table: string; name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
      db,
      sql`select t.name as "table", c.name, c.type, c."notnull", c.dflt_value, c.pk
          from ${tables} t join pragma_table_info(t.name) c order by t.name, c.cid`
    )
  )
  const indexes = byTable(
    await rows<{ table: string }>(
      db,
      sql`select t.name as "table", l.name, l."unique", l.origin, l.partial,
            (select group_concat(i.name, ',') from (select name from pragma_index_info(l.name) order by seqno) i) as columns
          from ${tables} t join pragma_index_list(t.name) l order by t.name, l.name`
    )
  )
  const foreignKeys = byTable(
    await rows<{ table: string }>(
      db,
      sql`select t.name as "table", f."table" as "references", f."from", f."to", f.on_update, f.on_delete
          from ${tables} t join pragma_foreign_key_list(t.name) f order by t.name, f."from"`
    )
  )
  const triggers = byTable(
    await rows<{ table: string }>(db, sql`select tbl_name as "table", name from sqlite_master where type = 'trigger' order by name`)
  )
  const schema: Schema = {}
  for (const [table, tableColumns] of columns) {
    schema[table] = {
      columns: tableColumns,
      primaryKey: tableColumns
        .filter((c) => c.pk > 0)
        .sort((x, y) => x.pk - y.pk)
        .map((c) => c.name),
      other: [
        ...(indexes.get(table) ?? []).map((index) => ({ index })),
        ...(foreignKeys.get(table) ?? []).map((foreignKey) => ({ foreignKey })),
        ...(triggers.get(table) ?? []).map((trigger) => ({ trigger }))
      ]
    }
  }
  return schema
}

async function describePostgres(db: Db): Promise<Schema> {
  const [{ schema: own } = { schema: "" }] = await rows<{ schema: string }>(db, sql`select current_schema() as schema`)
  // definitions name the schema, and two schemas are compared
  const unqualified = (text: string | null) => text?.replaceAll(`${own}.`, "") ?? null
  const namespace = sql`${own}::regnamespace`
  const tables = await rows<{ table: string; persistence: string }>(
    db,
    sql`select relname as "table", relpersistence as persistence from pg_class
        where relnamespace = ${namespace} and relkind = 'r' order by relname`
  )
  const columns = byTable(
    await rows<{ table: string; name: string; column_default: string | null }>(
      db,
      sql`select table_name as "table", column_name as name, data_type, is_nullable, column_default, is_identity, identity_generation
          from information_schema.columns where table_schema = ${own} order by table_name, ordinal_position`
    )
  )
  const constraints = byTable(
    await rows<{ table: string; name: string; type: string; definition: string; columns: string[] }>(
      db,
      sql`select c.relname as "table", k.conname as name, k.contype as type, pg_get_constraintdef(k.oid) as definition,
            array(select a.attname from unnest(k.conkey) with ordinality u(n, o)
                  join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.o)::text[] as columns
          from pg_constraint k join pg_class c on c.oid = k.conrelid
          where c.relnamespace = ${namespace} order by c.relname, k.conname`
    )
  )
  const indexes = byTable(
    await rows<{ table: string; name: string; definition: string }>(
      db,
      sql`select tablename as "table", indexname as name, indexdef as definition from pg_indexes
          where schemaname = ${own} order by tablename, indexname`
    )
  )
  const triggers = byTable(
    await rows<{ table: string; name: string; definition: string }>(
      db,
      sql`select c.relname as "table", t.tgname as name, pg_get_triggerdef(t.oid) as definition
          from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where c.relnamespace = ${namespace} and not t.tgisinternal order by c.relname, t.tgname`
    )
  )
  const schema: Schema = {}
  for (const { table, persistence } of tables) {
    const tableConstraints = constraints.get(table) ?? []
    schema[table] = {
      columns: (columns.get(table) ?? []).map((c) => ({ ...c, column_default: unqualified(c.column_default) })),
      primaryKey: tableConstraints.find((c) => c.type === "p")?.columns ?? [],
      other: [
        { persistence },
        ...tableConstraints.map((c) => ({ constraint: { name: c.name, type: c.type, definition: unqualified(c.definition) } })),
        ...(indexes.get(table) ?? []).map((i) => ({ index: { name: i.name, definition: unqualified(i.definition) } })),
        ...(triggers.get(table) ?? []).map((t) => ({ trigger: { name: t.name, definition: unqualified(t.definition) } }))
      ]
    }
  }
  const functions = await rows<{ name: string }>(
    db,
    sql`select proname as name from pg_proc where pronamespace = ${namespace} order by proname`
  )
  schema["(functions)"] = { columns: [], primaryKey: [], other: functions.map((f) => f.name) }
  return schema
}

// Rows

type Row = Record<string, unknown>

// The SQLite driver keeps each statement, and the names of its columns, by its text: a `select *`
// prepared before a migration changed the table would name the columns as they were. Each phase
// reads with statements of its own.
async function readRows(db: Db, phase: "before" | "after"): Promise<Record<string, Row[]>> {
  const tables =
    db.dialect === "sqlite"
      ? await rows<{ name: string }>(
          db,
          sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
        )
      : await rows<{ name: string }>(
          db,
          sql`select relname as name from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r' order by relname`
        )
  const result: Record<string, Row[]> = {}
  for (const { name } of tables) result[name] = await rows<Row>(db, sql`select * /* ${sql.raw(phase)} */ from ${sql.table(name)}`)
  return result
}

function rowCounts(tables: Record<string, Row[]>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(tables)
      .filter(([table]) => !table.startsWith("kysely_migration"))
      .map(([table, rows]) => [table, rows.length])
  )
}

/**
 * What became of a table's rows `before` the upgrade in the same table `after` it: one line per row
 * gone or changed. Rows are matched by primary key (by all their values where the table has none),
 * and compared in the columns the table still has.
 */
function compareRows(table: string, before: Row[], after: Row[] | undefined, now: Schema[string] | undefined): string[] {
  if (after === undefined || now === undefined)
    return before.length > 0 ? [`${table}: the table and its ${before.length} rows are gone`] : []
  const columns = now.columns.map((c) => c.name)
  const key = now.primaryKey.length > 0 ? now.primaryKey : columns
  const keyOf = (row: Row) => JSON.stringify(key.map((c) => normalise(row[c])))
  const found = new Map<string, Row[]>()
  for (const row of after) found.set(keyOf(row), [...(found.get(keyOf(row)) ?? []), row])
  const problems: string[] = []
  for (const row of before) {
    const match = found.get(keyOf(row))?.shift()
    if (match === undefined) {
      problems.push(`${table}: row ${keyOf(row)} is gone`)
      continue
    }
    for (const column of columns) {
      if (column in row && !Object.is(normalise(row[column]), normalise(match[column]))) {
        problems.push(
          `${table}: row ${keyOf(row)} column ${column} was ${JSON.stringify(row[column])}, is ${JSON.stringify(match[column])}`
        )
      }
    }
  }
  return problems
}

// bigint where a driver hands one back; everything else is compared as it is
const normalise = (value: unknown): unknown => (typeof value === "bigint" ? Number(value) : value)
