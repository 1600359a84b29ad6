import { type Kysely, sql } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

/** The mail outbox and the one-time tokens that mails carry (verify, reset, email change). */
export function mailAndTokens(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("outbox")
      .addColumn("id", "integer", id)
      .addColumn("to_address", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text_body", "text", (c) => c.notNull())
      .addColumn("html_body", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull().defaultTo("pending").check(sql`status in ('pending', 'sent', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "text", (c) => c.notNull())
      .addColumn("last_error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("sent_at", "text")
      .execute()
    // The worker's only query shape: pending mails that are due, oldest first.
    await schema.createIndex("outbox_status_next_attempt_idx").on("outbox").columns(["status", "next_attempt_at"]).execute()

    await schema
      .createTable("one_time_tokens")
      .addColumn("id", "integer", id)
      .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('verify', 'reset', 'email-change')`))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("new_email", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute()
    await schema.createIndex("one_time_tokens_user_purpose_idx").on("one_time_tokens").columns(["user_id", "purpose"]).execute()
  }
  return { up }
}
