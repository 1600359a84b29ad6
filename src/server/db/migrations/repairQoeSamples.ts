import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// 0009_live_connections gained the stream_qoe_samples table after databases had already run it:
// those never got the table (every health beacon and the users view failed on them). This makes
// it, with its index, where it is missing, exactly as 0009 makes it now; elsewhere it does nothing.
export function repairQoeSamples(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("stream_qoe_samples")
      .ifNotExists()
      .addColumn("id", "integer", id)
      .addColumn("stream_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("value", "double precision", (c) => c.notNull())
      .addColumn("at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("stream_qoe_samples_at_idx").ifNotExists().on("stream_qoe_samples").columns(["at", "kind"]).execute()
  }
  return { up }
}
