import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// Forgot-password requests, by a hash of the address asked for, whether or not it has an account:
// the per-address limit survives restarts, and every request commits the same write, so the
// answer's timing does not tell registered addresses from unknown ones.
export function passwordResetRequests(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("password_reset_requests")
      .addColumn("id", "integer", id)
      .addColumn("email_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
    await schema
      .createIndex("password_reset_requests_email_idx")
      .on("password_reset_requests")
      .columns(["email_hash", "created_at"])
      .execute()
    await schema.createIndex("password_reset_requests_created_idx").on("password_reset_requests").column("created_at").execute()
  }
  return { up }
}
