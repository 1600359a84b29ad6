import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { idColumn, type SchemaBuilder } from "./idColumn.ts"

// What staff and operators did: who (an email, or the CLI and its OS user), what (a short stable
// code), to what, what changed, when and from which address. Rows are only added, listed newest
// first (by id) with or without one actor or one action, and removed by age. The acting account
// is no foreign key: the log outlives an account it names.
export function auditLog(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: SchemaBuilder = db.schema
    await schema
      .createTable("audit_log")
      .addColumn("id", "integer", id)
      .addColumn("at", "text", (c) => c.notNull())
      .addColumn("actor", "text", (c) => c.notNull())
      .addColumn("actor_user_id", "integer")
      .addColumn("action", "text", (c) => c.notNull())
      .addColumn("target", "text", (c) => c.notNull())
      .addColumn("detail", "text", (c) => c.notNull())
      .addColumn("address", "text")
      .execute()
    await schema.createIndex("audit_log_at_idx").on("audit_log").column("at").execute()
    await schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor", "id"]).execute()
    await schema.createIndex("audit_log_action_idx").on("audit_log").columns(["action", "id"]).execute()
  }
  return { up }
}
