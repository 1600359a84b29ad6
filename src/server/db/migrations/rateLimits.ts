import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { SchemaBuilder } from "./idColumn.ts"

// Rate-limit and lockout counters shared by every instance on one PostgreSQL: one row per key and
// fixed window, counted by upsert. SQLite serves one instance and counts in memory; the table is
// there too so both schemas stay alike.
export function rateLimits(): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("rate_limits")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("count", "integer", (c) => c.notNull())
      // epoch ms: compared with the clock on every count, cheaper as a number than as text
      .addColumn("closes_at", "bigint", (c) => c.notNull())
      .execute()
    await schema.createIndex("rate_limits_closes_idx").on("rate_limits").column("closes_at").execute()
  }
  return { up }
}
