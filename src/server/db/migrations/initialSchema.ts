import { type Kysely, sql } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

/** Accounts, sessions, streams, site content, tickets, invitations and payments. */
export function initialSchema(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("users")
      .addColumn("id", "integer", id)
      .addColumn("username", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("is_staff", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
      .addColumn("email_verified_at", "text")
      .addColumn("invite_token", "text", (c) => c.notNull().unique())
      .addColumn("reward_points", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()

    await schema
      .createTable("sessions")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("is_mobile", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("user_agent", "text")
      .addColumn("ip", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("last_seen_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute()

    await schema
      .createTable("streams")
      .addColumn("id", "integer", id)
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("src", "text")
      .addColumn("src_sldp", "text")
      .addColumn("image_location", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("tags", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("tags_sldp", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("maintenance_mode", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("streams_position_idx").on("streams").columns(["position", "id"]).execute()

    await schema
      .createTable("settings")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute()

    // One row at most: the check keeps a stray insert from creating a second, ambiguous status.
    await schema
      .createTable("maintenance")
      .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn("maintenance_mode", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("first_row_text", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("second_row_text", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute()

    await schema
      .createTable("announcements")
      .addColumn("id", "integer", id)
      .addColumn("token", "text", (c) => c.notNull().unique())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()

    await schema
      .createTable("tickets")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("resolved_at", "text")
      .execute()
    await schema.createIndex("tickets_user_id_idx").on("tickets").column("user_id").execute()

    await schema
      .createTable("invitations")
      .addColumn("id", "integer", id)
      .addColumn("inviter_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("new_user_id", "integer", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
      .addColumn("new_user_email", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("reward_given", "text")
      .execute()
    await schema.createIndex("invitations_inviter_id_idx").on("invitations").column("inviter_id").execute()

    // double precision is a plain number on both dialects; numeric would round differently in
    // each and come back from pg as a string.
    await schema
      .createTable("payments")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("paypal_transaction_id", "text")
      .addColumn("provider", "text", (c) => c.notNull().defaultTo("paypal"))
      .addColumn("price", "double precision", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("payments_user_id_idx").on("payments").column("user_id").execute()
    await schema.createIndex("payments_created_at_idx").on("payments").column("created_at").execute()
  }
  return { up }
}
