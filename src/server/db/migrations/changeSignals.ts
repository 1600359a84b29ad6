import { type Kysely, sql } from "kysely"
import type { Dialect } from "../database.ts"

// How a migration adds a table to those whose changes servers follow (Db.tableVersion), as
// 0012_table_versions did for `streams`: SQLite counts the changes in table_versions by triggers,
// PostgreSQL announces them on the channel 0012 created. (0012 keeps its own copy: a migration
// that has landed is never changed, its helpers included.)
export async function followChanges(db: Kysely<unknown>, dialect: Dialect, table: string): Promise<void> {
  await (db as Kysely<{ table_versions: { name: string; version: number } }>)
    .insertInto("table_versions")
    .values({ name: table, version: 0 })
    .execute()
  if (dialect === "sqlite") {
    // per row, so a statement changing n rows counts n: only inequality matters
    for (const event of ["insert", "update", "delete"]) {
      await sql`create trigger ${sql.id(`${table}_${event}_version`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin update table_versions set version = version + 1 where name = ${sql.lit(table)}; end`.execute(db)
    }
  } else {
    await sql`create trigger ${sql.id(`${table}_announce_change`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function announce_table_change()`.execute(db)
  }
}
