import type { ColumnDefinitionBuilder, Kysely } from "kysely"
import type { Dialect } from "../database.ts"

export type SchemaBuilder = Kysely<unknown>["schema"]

/** Integer surrogate key. SQLite's AUTOINCREMENT stops ids of deleted rows being handed out again. */
export function idColumn(dialect: Dialect) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === "postgres" ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement()
}
