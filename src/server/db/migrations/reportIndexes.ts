import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { SchemaBuilder } from "./idColumn.ts"

// The staff reports read every figure through an index: accounts' first payments, the paid months
// that cover today, and accounts by when they were verified.
export function reportIndexes(): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema.dropIndex("payments_user_id_idx").execute()
    await schema.dropIndex("payments_created_at_idx").execute()
    // covering: a range's orders and revenue by provider never read the table itself
    await schema.createIndex("payments_created_provider_price_idx").on("payments").columns(["created_at", "provider", "price"]).execute()
    await schema.createIndex("payments_user_created_idx").on("payments").columns(["user_id", "created_at"]).execute()
    await schema.createIndex("payments_period_end_idx").on("payments").columns(["period_end", "period_start"]).execute()
    await schema.createIndex("users_email_verified_at_idx").on("users").column("email_verified_at").execute()
  }
  return { up }
}
