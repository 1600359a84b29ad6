import { sql } from "kysely"
import type { Db } from "../../src/server/db/database.ts"

/**
 * What the database's own checker finds wrong; empty when it is sound. SQLite: `pragma
 * integrity_check` over every page, table and index. PostgreSQL: amcheck's `verify_heapam` on
 * every table and `bt_index_check` on every index of the schema in use.
 */
export async function integrityProblems(db: Db): Promise<Array<string>> {
  if (db.dialect === "sqlite") {
    const rows = (await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db.kysely)).rows
    return rows.map((row) => row.integrity_check).filter((line) => line !== "ok")
  }
  try {
    await sql`create extension if not exists amcheck with schema public`.execute(db.kysely)
  } catch (error) {
    // another test file creating it at the same moment: it exists either way
    if (!String(error).includes("already exists") && (error as { code?: string }).code !== "23505") throw error
  }
  const problems: Array<string> = []
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'`.execute(db.kysely)
  for (const { name } of tables.rows) {
    const corrupt = await sql<{ msg: string }>`select msg from public.verify_heapam(${sql.raw(`'${name}'`)}::regclass)`.execute(db.kysely)
    problems.push(...corrupt.rows.map((row) => `${name}: ${row.msg}`))
  }
  const indexes = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    join pg_am am on am.oid = c.relam
    where n.nspname = current_schema() and c.relkind = 'i' and am.amname = 'btree'`.execute(db.kysely)
  for (const { name } of indexes.rows) {
    try {
      await sql`select public.bt_index_check(${sql.raw(`'${name}'`)}::regclass, true)`.execute(db.kysely)
    } catch (error) {
      problems.push(`${name}: ${String(error)}`)
    }
  }
  return problems
}
