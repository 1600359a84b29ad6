import { type Kysely, sql } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import type { SchemaBuilder } from "./idColumn.ts"

// The programme guide: XMLTV channels (or the demo's generated ones), their programmes, a staging
// table an import fills before it swaps its rows in, and the leases that keep background jobs to
// one instance when several share the database.
export function guideSchema(dialect: Dialect): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    // Not a foreign key: a stream may name its XMLTV channel before any guide has been imported.
    await schema.alterTable("streams").addColumn("epg_channel_id", "text").execute()
    await schema.createIndex("streams_epg_channel_id_idx").on("streams").column("epg_channel_id").execute()

    await schema
      .createTable("guide_channels")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull().check(sql`source in ('xmltv', 'demo')`))
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute()

    // One programme per channel and start: two instances generating the same demo programmes, or
    // a file listing one twice, cannot double it. No foreign key to guide_channels: PostgreSQL
    // checks one with a trigger per row, which doubled the time an import takes to swap in, and
    // the only writers (the import, the demo guide) put the channel in place first.
    await schema
      .createTable("guide_programmes")
      .addColumn("channel_id", "text", (c) => c.notNull())
      .addColumn("start_at", "text", (c) => c.notNull())
      .addColumn("stop_at", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("subtitle", "text", (c) => c.notNull().defaultTo(""))
      .addPrimaryKeyConstraint("guide_programmes_pkey", ["channel_id", "start_at"])
      .execute()
    // Programmes last at most a day, so "overlaps [from, to)" becomes a range of start times.
    await schema.createIndex("guide_programmes_start_idx").on("guide_programmes").column("start_at").execute()

    // Scratch rows that only matter until their import commits: PostgreSQL need not log them, and
    // on SQLite an import stages into a temporary table of the same name (see guideImportRepo).
    await schema
      .createTable("guide_staging")
      .$call((table) => (dialect === "postgres" ? table.modifyFront(sql`unlogged`) : table))
      .addColumn("import_id", "text", (c) => c.notNull())
      .addColumn("channel_id", "text", (c) => c.notNull())
      .addColumn("start_at", "text", (c) => c.notNull())
      .addColumn("stop_at", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("subtitle", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("guide_staging_import_idx").on("guide_staging").column("import_id").execute()

    await schema
      .createTable("job_leases")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("holder", "text", (c) => c.notNull())
      .addColumn("leased_until", "text", (c) => c.notNull())
      .execute()
  }
  return { up }
}
