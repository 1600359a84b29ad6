import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { SchemaBuilder } from "./idColumn.ts"

// Forgot-password requests are limited per client network too, so requests from strangers'
// networks never refuse the owner's own; the network is kept beside the address's hash (rows
// made before this have none, and leave the window within the hour).
export function resetRequestNetworks(): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema.alterTable("password_reset_requests").addColumn("network", "text").execute()
    await schema
      .createIndex("password_reset_requests_network_idx")
      .on("password_reset_requests")
      .columns(["email_hash", "network", "created_at"])
      .execute()
  }
  return { up }
}
