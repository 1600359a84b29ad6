/**
 * What db:copy reads of the target PostgreSQL schema before copying: its tables with their
 * columns, that the SQLite source has the same, and the order foreign keys allow them to be filled in.
 */
import { type Kysely, sql } from "kysely"
import type { Tables } from "../db/schema.ts"

/** A copy that could not be made, in one line for the operator; the target is left as it was. */
export class CopyRefused extends Error {
  override readonly name = "CopyRefused"
}

export interface TargetColumn {
  readonly name: string
  /** information_schema's data_type: `boolean`, `integer`, `text`, … */
  readonly type: string
  /** An identity column: its sequence must continue after the copied ids. */
  readonly identity: boolean
}

export interface TargetTable {
  readonly name: string
  readonly columns: ReadonlyArray<TargetColumn>
}

/** The base tables of the schema the connection works in (`?schema=` or the default), by name. */
export async function targetTables(db: Kysely<Tables>): Promise<ReadonlyArray<TargetTable>> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string; is_identity: string }>`
    select c.table_name, c.column_name, c.data_type, c.is_identity
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db)
  const tables = new Map<string, Array<TargetColumn>>()
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? []
    columns.push({ name: row.column_name, type: row.data_type, identity: row.is_identity === "YES" })
    tables.set(row.table_name, columns)
  }
  return [...tables].map(([name, columns]) => ({ name, columns }))
}

/** Which table refers to which, from PostgreSQL's catalogue, so a new table's keys are never missed. */
export async function foreignKeys(db: Kysely<Tables>): Promise<ReadonlyArray<{ readonly child: string; readonly parent: string }>> {
  const { rows } = await sql<{ child: string; parent: string }>`
    select child.relname as child, parent.relname as parent
    from pg_constraint c
    join pg_class child on child.oid = c.conrelid
    join pg_class parent on parent.oid = c.confrelid
    join pg_namespace n on n.oid = child.relnamespace
    where c.contype = 'f' and n.nspname = current_schema()`.execute(db)
  return rows
}

/** The two schemas must match (both are at this version's): no table or column left behind or missing. */
export async function checkSourceFits(
  source: Kysely<Tables>,
  copied: ReadonlyArray<TargetTable>,
  all: ReadonlyArray<TargetTable>
): Promise<void> {
  const { rows: names } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(source)
  const known = new Set(all.map((table) => table.name))
  const left = names.map((row) => row.name).filter((name) => !known.has(name))
  if (left.length > 0) throw new CopyRefused(`the target has no table for ${left.join(", ")} of the SQLite database`)
  for (const table of copied) {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table.name})`.execute(source)
    const have = new Set(rows.map((row) => row.name))
    if (have.size === 0) throw new CopyRefused(`the SQLite database has no table ${table.name}`)
    const missing = table.columns.filter((column) => !have.has(column.name))
    if (missing.length > 0) throw new CopyRefused(`the SQLite table ${table.name} lacks ${missing.map((c) => c.name).join(", ")}`)
  }
}

/** `tables` with every referenced table before the tables referring to it (by name where free to choose). */
export function copyOrder<T extends { readonly name: string }>(
  tables: ReadonlyArray<T>,
  keys: ReadonlyArray<{ readonly child: string; readonly parent: string }>
): ReadonlyArray<T> {
  const names = new Set(tables.map((table) => table.name))
  // a table referring to itself, or to one not copied, waits for nothing
  const waitsFor = new Map(
    tables.map((table) => [
      table.name,
      new Set(keys.filter((key) => key.child === table.name && key.parent !== key.child && names.has(key.parent)).map((key) => key.parent))
    ])
  )
  const ordered: Array<T> = []
  const left = [...tables].sort((a, b) => a.name.localeCompare(b.name))
  while (left.length > 0) {
    const next = left.findIndex((table) => [...(waitsFor.get(table.name) ?? [])].every((parent) => ordered.some((t) => t.name === parent)))
    if (next < 0) throw new CopyRefused(`the target's foreign keys form a cycle among ${left.map((table) => table.name).join(", ")}`)
    ordered.push(...left.splice(next, 1))
  }
  return ordered
}
