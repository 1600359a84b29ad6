import type { ColumnDefinitionBuilder, Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// Player telemetry: live connections for the staff view, and the raw analytics, health and
// metering records. These are logs: the server prunes them by `received_at`/`last_seen`, so each
// gets an index on that column, and user_id indexes keep account deletion from scanning them.
export function telemetrySchema(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    const userId = (c: ColumnDefinitionBuilder) => c.notNull().references("users.id").onDelete("cascade")
    await schema
      .createTable("player_connections")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("app", "text", (c) => c.notNull())
      .addColumn("first_seen", "text", (c) => c.notNull())
      .addColumn("last_seen", "text", (c) => c.notNull())
      .addUniqueConstraint("player_connections_key", ["user_id", "token", "ip", "app"])
      .execute()
    await schema.createIndex("player_connections_last_seen_idx").on("player_connections").column("last_seen").execute()

    await schema
      .createTable("analytics_events")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("video_type", "text", (c) => c.notNull())
      .addColumn("sitegroup_id", "text", (c) => c.notNull())
      .addColumn("media_id", "text", (c) => c.notNull())
      .addColumn("session_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.notNull())
      .addColumn("position", "text", (c) => c.notNull())
      .addColumn("created", "double precision", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("analytics_events_received_idx").on("analytics_events").column("received_at").execute()
    await schema.createIndex("analytics_events_user_idx").on("analytics_events").column("user_id").execute()

    await schema
      .createTable("health_events")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("session_id", "text", (c) => c.notNull())
      .addColumn("device_id", "text", (c) => c.notNull())
      .addColumn("version", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("current_time", "double precision", (c) => c.notNull())
      .addColumn("client_time", "double precision", (c) => c.notNull())
      .addColumn("adjusted_time", "double precision", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("page_url", "text", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("health_events_received_idx").on("health_events").column("received_at").execute()
    await schema.createIndex("health_events_user_idx").on("health_events").column("user_id").execute()

    await schema
      .createTable("metering")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("token_id", "text", (c) => c.notNull())
      .addColumn("factor", "double precision", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("metering_received_idx").on("metering").column("received_at").execute()
    await schema.createIndex("metering_user_idx").on("metering").column("user_id").execute()

    // Absent row = default permissions; operators only store the exceptions.
    await schema
      .createTable("player_permissions")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("no_metering", "boolean", (c) => c.notNull().defaultTo(false))
      .execute()
  }
  return { up }
}
