import { randomBytes } from "node:crypto"
import type { ColumnDefinitionBuilder, Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// A connection becomes one player session: a session's player on one stream, whatever address it
// comes from, which staff or the account's limit may end. The old rows were keyed by address and
// only ever live for two minutes, so the table starts afresh. Addresses refused by the signed
// stream URLs are kept for the staff view, and the key that signs those URLs is shared by every
// instance through the database. Players' starts, stalls and errors per stream feed the staff
// view's quality figures.
export function liveConnections(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    const userId = (c: ColumnDefinitionBuilder) => c.notNull().references("users.id").onDelete("cascade")
    await schema.dropTable("player_connections").execute()
    await schema
      .createTable("player_connections")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("session_id", "integer", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("stream_id", "text", (c) => c.notNull())
      .addColumn("app", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("network", "text", (c) => c.notNull())
      .addColumn("first_seen", "text", (c) => c.notNull())
      .addColumn("last_seen", "text", (c) => c.notNull())
      .addColumn("ended_at", "text")
      .addColumn("ended_reason", "text")
      .addUniqueConstraint("player_connections_player_key", ["session_id", "stream_id", "app"])
      .execute()
    await schema.createIndex("player_connections_last_seen_idx").on("player_connections").column("last_seen").execute()
    await schema.createIndex("player_connections_user_seen_idx").on("player_connections").columns(["user_id", "last_seen"]).execute()
    await schema.createIndex("player_connections_ended_idx").on("player_connections").column("ended_at").execute()

    await schema
      .createTable("unknown_viewers")
      .addColumn("ip", "text", (c) => c.primaryKey())
      .addColumn("channel", "text", (c) => c.notNull())
      .addColumn("first_seen", "text", (c) => c.notNull())
      .addColumn("last_seen", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("unknown_viewers_last_seen_idx").on("unknown_viewers").column("last_seen").execute()

    // what the users view's per-stream quality figures are made of: a stream's times to first
    // picture, its stalls and its errors, each a row as the players' health beacons tell them
    await schema
      .createTable("stream_qoe_samples")
      .addColumn("id", "integer", id)
      .addColumn("stream_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("value", "double precision", (c) => c.notNull())
      .addColumn("at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("stream_qoe_samples_at_idx").on("stream_qoe_samples").columns(["at", "kind"]).execute()

    await schema
      .createTable("server_keys")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute()
    await (db as Kysely<{ server_keys: { name: string; value: string } }>)
      .insertInto("server_keys")
      .values({ name: "stream-grants", value: randomBytes(32).toString("base64url") })
      .onConflict((oc) => oc.column("name").doNothing())
      .execute()
  }
  return { up }
}
