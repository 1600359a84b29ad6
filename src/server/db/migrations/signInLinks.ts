import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// Sign-in links: when strangers have spent an account's wrong-password budget, the right password
// from a new network mails the owner a single-use link (kept as its SHA-256) instead of a refusal.
// And an email change remembers the session it was asked from, which its confirmation keeps while
// it ends the account's other sessions.
export function signInLinks(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("sign_in_links")
      .addColumn("id", "integer", id)
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute()
    await schema.createIndex("sign_in_links_user_idx").on("sign_in_links").columns(["user_id", "created_at"]).execute()
    await schema.createIndex("sign_in_links_expires_idx").on("sign_in_links").column("expires_at").execute()
    await schema.alterTable("one_time_tokens").addColumn("session_id", "integer").execute()
  }
  return { up }
}
