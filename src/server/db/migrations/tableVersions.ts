import { type Kysely, sql } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import type { SchemaBuilder } from "./idColumn.ts"

/** The channel PostgreSQL announces a watched table's changes on, as `schema.table`. */
export const TABLE_CHANGES_CHANNEL = "table_changes"

// A server keeps the streams in memory (every viewer's grid asks for them) and must learn of a
// change made by the operator CLI or another instance (Db.tableVersion). SQLite counts the
// table's changes in table_versions, by triggers that run inside the writing transaction, so the
// count moves atomically with the change and the server reads it as cheaply as any row.
// PostgreSQL announces each changing statement to listeners instead (LISTEN/NOTIFY, delivered at
// commit), so no writer contends on a counter row; table_versions is there too so both schemas
// stay alike, and stays at zero.
export function tableVersions(dialect: Dialect): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("table_versions")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("version", "integer", (c) => c.notNull())
      .execute()
    await (db as Kysely<{ table_versions: { name: string; version: number } }>)
      .insertInto("table_versions")
      .values({ name: "streams", version: 0 })
      .execute()
    if (dialect === "sqlite") {
      await countChanges(db, "streams")
    } else {
      await createAnnouncer(db)
      await announceChanges(db, "streams")
    }
  }
  return { up }
}

async function countChanges(db: Kysely<unknown>, table: string): Promise<void> {
  // SQLite triggers run per row, so a statement changing n rows counts n: only inequality matters
  for (const event of ["insert", "update", "delete"]) {
    await sql`create trigger ${sql.id(`${table}_${event}_version`)} after ${sql.raw(event)} on ${sql.table(table)}
      begin update table_versions set version = version + 1 where name = ${sql.lit(table)}; end`.execute(db)
  }
}

async function createAnnouncer(db: Kysely<unknown>): Promise<void> {
  // Several schemas may share one database (tests, shared servers) and one channel: the payload
  // names the schema so a listener can ignore the others. Notifications with the same payload in
  // one transaction are folded into one by PostgreSQL.
  await sql`create function announce_table_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(TABLE_CHANGES_CHANNEL)}, TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
      return null;
    end
  $$`.execute(db)
}

async function announceChanges(db: Kysely<unknown>, table: string): Promise<void> {
  // per statement, not per row: a statement changing many rows announces itself once; truncate counts too
  await sql`create trigger ${sql.id(`${table}_announce_change`)}
    after insert or update or delete or truncate on ${sql.table(table)}
    for each statement execute function announce_table_change()`.execute(db)
}
