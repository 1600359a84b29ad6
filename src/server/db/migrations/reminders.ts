import { type Kysely, sql } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// Reminders: a viewer asks to be mailed a chosen time before a programme of the guide starts.
// The programme is named by its guide channel and start (a guide programme's key), with its times
// and title kept as they were when it was found, so the mail and the calendar feed need no join
// and a guide refresh that moves or drops the programme can be told apart; the viewer's time zone
// says the start in the mail as they read the guide. One per viewer and programme. The calendar
// feed is one secret address per account, kept as its SHA-256 only.
export function reminders(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("reminders")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("stream_id", "integer", (c) => c.notNull().references("streams.id").onDelete("cascade"))
      .addColumn("channel_id", "text", (c) => c.notNull())
      .addColumn("start_at", "text", (c) => c.notNull())
      .addColumn("stop_at", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("lead_minutes", "integer", (c) => c.notNull())
      .addColumn("remind_at", "text", (c) => c.notNull())
      .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
      .addColumn("state", "text", (c) => c.notNull().defaultTo("pending").check(sql`state in ('pending', 'sent', 'dropped')`))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("notified_at", "text")
      .addUniqueConstraint("reminders_user_programme_key", ["user_id", "channel_id", "start_at"])
      .execute()
    await schema.createIndex("reminders_due_idx").on("reminders").columns(["state", "remind_at"]).execute()
    await schema.createIndex("reminders_stop_idx").on("reminders").column("stop_at").execute()
    await schema
      .createTable("calendar_feeds")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
  }
  return { up }
}
