import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { followChanges } from "./changeSignals.ts"
import type { SchemaBuilder } from "./idColumn.ts"

// Where a channel that our origin serves gets its media from, kept apart from `streams`, whose
// rows reach browsers: the upstream address and its headers are for the server alone. A stream
// has at most one feed; the channel is the `/live/<channel>/` path its playlists are served at.
// Servers follow the table's changes as they follow the streams'.
export function streamFeeds(dialect: Dialect): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("stream_feeds")
      .addColumn("stream_id", "integer", (c) => c.primaryKey().references("streams.id").onDelete("cascade"))
      .addColumn("channel", "text", (c) => c.notNull().unique())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("upstream_url", "text", (c) => c.notNull())
      // JSON: an array of [name, value] pairs
      .addColumn("upstream_headers", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("always_on", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
    // What the instance running a feed last saw of it, for staff and the operator CLI.
    await schema
      .createTable("feed_health")
      .addColumn("channel", "text", (c) => c.primaryKey())
      .addColumn("instance", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      // JSON: the feed's figures (upstream status, newest part's age, bitrate, viewers, restarts, last error)
      .addColumn("figures", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute()
    await followChanges(db, dialect, "stream_feeds")
  }
  return { up }
}
