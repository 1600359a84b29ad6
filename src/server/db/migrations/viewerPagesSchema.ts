import { type Kysely, sql } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// Reward points become a ledger, payments learn their fee, currency and the month they bought,
// and tickets keep an attached player context and when staff first answered.
export function viewerPagesSchema(dialect: Dialect): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("reward_ledger")
      .addColumn("id", "integer", idColumn(dialect))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("points", "integer", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('invite', 'redeem', 'adjust')`))
      // the point outlives an invitation deleted with its invitee's account
      .addColumn("invitation_id", "integer", (c) => c.unique().references("invitations.id").onDelete("set null"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("reward_ledger_user_id_idx").on("reward_ledger").column("user_id").execute()

    // the points counted so far: one row per completed invitation, and whatever else the count held
    const now = new Date().toISOString()
    await sql`insert into reward_ledger (user_id, points, reason, invitation_id, created_at)
      select inviter_id, 1, 'invite', id, reward_given from invitations where reward_given is not null`.execute(db)
    await sql`insert into reward_ledger (user_id, points, reason, invitation_id, created_at)
      select u.id, u.reward_points - (select count(*) from invitations i where i.inviter_id = u.id and i.reward_given is not null), 'adjust', null, ${now}
      from users u
      where u.reward_points <> (select count(*) from invitations i where i.inviter_id = u.id and i.reward_given is not null)`.execute(db)
    await schema.alterTable("users").dropColumn("reward_points").execute()

    await schema
      .alterTable("payments")
      .addColumn("fee", "double precision", (c) => c.notNull().defaultTo(0))
      .execute()
    await schema
      .alterTable("payments")
      .addColumn("currency", "text", (c) => c.notNull().defaultTo("USD"))
      .execute()
    await schema.alterTable("payments").addColumn("period_start", "text").execute()
    await schema.alterTable("payments").addColumn("period_end", "text").execute()
    await schema.createIndex("payments_paypal_transaction_id_key").unique().on("payments").column("paypal_transaction_id").execute()
    await schema.createIndex("payments_user_period_end_idx").on("payments").columns(["user_id", "period_end"]).execute()

    await schema.alterTable("tickets").addColumn("player_context", "text").execute()
    await schema.alterTable("tickets").addColumn("first_response_at", "text").execute()
    // a viewer's own tickets, newest first, and how many they opened in the last hour
    await schema.dropIndex("tickets_user_id_idx").execute()
    await schema.createIndex("tickets_user_created_idx").on("tickets").columns(["user_id", "created_at"]).execute()
  }
  return { up }
}
