import { type ColumnDefinitionBuilder, type Kysely, sql } from "kysely"
import { type Migration, Migrator } from "kysely/migration"
import type { Db, Dialect } from "./database.ts"

// Migrations live in code, not in files found at run time, so the bundle and the tests always
// carry exactly the schema the queries were written against. Names sort in order of application.

type Schema = Kysely<unknown>["schema"]

/** Integer surrogate key. SQLite's AUTOINCREMENT stops ids of deleted rows being handed out again. */
function idColumn(dialect: Dialect) {
  return (col: ColumnDefinitionBuilder) =>
    dialect === "postgres" ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement()
}

function initial(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: Schema = db.schema
    await schema.createTable("users")
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

    await schema.createTable("sessions")
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

    await schema.createTable("streams")
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

    await schema.createTable("settings")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute()

    // One row at most: the check keeps a stray insert from creating a second, ambiguous status.
    await schema.createTable("maintenance")
      .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn("maintenance_mode", "boolean", (c) => c.notNull().defaultTo(false))
      .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("first_row_text", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("second_row_text", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute()

    await schema.createTable("announcements")
      .addColumn("id", "integer", id)
      .addColumn("token", "text", (c) => c.notNull().unique())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()

    await schema.createTable("tickets")
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

    await schema.createTable("invitations")
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
    await schema.createTable("payments")
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

function mailAndTokens(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: Schema = db.schema
    await schema.createTable("outbox")
      .addColumn("id", "integer", id)
      .addColumn("to_address", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text_body", "text", (c) => c.notNull())
      .addColumn("html_body", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) =>
        c.notNull().defaultTo("pending").check(sql`status in ('pending', 'sent', 'failed')`))
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "text", (c) => c.notNull())
      .addColumn("last_error", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("sent_at", "text")
      .execute()
    // The worker's only query shape: pending mails that are due, oldest first.
    await schema.createIndex("outbox_status_next_attempt_idx").on("outbox")
      .columns(["status", "next_attempt_at"]).execute()

    await schema.createTable("one_time_tokens")
      .addColumn("id", "integer", id)
      .addColumn("purpose", "text", (c) =>
        c.notNull().check(sql`purpose in ('verify', 'reset', 'email-change')`))
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("new_email", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute()
    await schema.createIndex("one_time_tokens_user_purpose_idx").on("one_time_tokens")
      .columns(["user_id", "purpose"]).execute()
  }
  return { up }
}

// Forgot-password requests, by a hash of the address asked for, whether or not it has an account:
// the per-address limit survives restarts, and every request commits the same write, so the
// answer's timing does not tell registered addresses from unknown ones.
function passwordResetRequests(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: Schema = db.schema
    await schema.createTable("password_reset_requests")
      .addColumn("id", "integer", id)
      .addColumn("email_hash", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("password_reset_requests_email_idx").on("password_reset_requests")
      .columns(["email_hash", "created_at"]).execute()
    await schema.createIndex("password_reset_requests_created_idx").on("password_reset_requests")
      .column("created_at").execute()
  }
  return { up }
}

export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    "0001_initial": initial(dialect),
    "0002_mail_and_tokens": mailAndTokens(dialect),
    "0003_password_reset_requests": passwordResetRequests(dialect),
    "0004_telemetry": telemetry(dialect),
    "0005_health_ids_plugins": healthIdsAndPlugins()
  }
}

/** Brings the schema up to date; safe to call on every start. Returns the migrations it ran. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Kysely's migrator introspects every schema it can see; a schema dropped by someone else at
  // that moment (parallel test databases, shared servers) fails the lookup before any migration
  // has run, so trying again is safe.
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db)
    } catch (error) {
      if (attempt >= 3 || !isSchemaVanished(error)) throw error
    }
  }
}

const isSchemaVanished = (error: unknown): boolean => {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === "3F000") return true
  }
  return false
}

async function migrateOnce(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations(db.dialect) },
    // Kysely looks for its bookkeeping table in every schema it can see unless told which one;
    // with several schemas in one PostgreSQL database (tests, shared servers) it would find
    // another schema's table and skip creating its own.
    ...(db.dialect === "postgres" ? { migrationTableSchema: await currentSchema(db) } : {})
  })
  const { error, results = [] } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results.find((r) => r.status === "Error")?.migrationName ?? "unknown"
    throw new Error(`database migration ${failed} failed`, { cause: error })
  }
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName)
}

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db.kysely)
  const schema = rows[0]?.schema
  if (!schema) throw new Error("database: no schema on the search_path to migrate into")
  return schema
}

// Player telemetry: live connections for the staff view, and the raw analytics, health and
// metering records. These are logs: the server prunes them by `received_at`/`last_seen`, so each
// gets an index on that column, and user_id indexes keep account deletion from scanning them.
function telemetry(dialect: Dialect): Migration {
  const id = idColumn(dialect)
  const up = async (db: Kysely<unknown>): Promise<void> => {
    const schema: Schema = db.schema
    const userId = (c: ColumnDefinitionBuilder) => c.notNull().references("users.id").onDelete("cascade")
    await schema.createTable("player_connections")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("app", "text", (c) => c.notNull())
      .addColumn("first_seen", "text", (c) => c.notNull())
      .addColumn("last_seen", "text", (c) => c.notNull())
      .addUniqueConstraint("player_connections_key", ["user_id", "token", "ip", "app"])
      .execute()
    await schema.createIndex("player_connections_last_seen_idx").on("player_connections").column("last_seen").execute()

    await schema.createTable("analytics_events")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("video_type", "text", (c) => c.notNull())
      .addColumn("sitegroup_id", "text", (c) => c.notNull())
      .addColumn("media_id", "text", (c) => c.notNull())
      .addColumn("session_id", "text", (c) => c.notNull())
      .addColumn("player_id", "text", (c) => c.notNull())
      .addColumn("position", "text", (c) => c.notNull())
      .addColumn("created", "double precision", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("analytics_events_received_idx").on("analytics_events").column("received_at").execute()
    await schema.createIndex("analytics_events_user_idx").on("analytics_events").column("user_id").execute()

    await schema.createTable("health_events")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("session_id", "text", (c) => c.notNull())
      .addColumn("device_id", "text", (c) => c.notNull())
      .addColumn("version", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("current_time", "double precision", (c) => c.notNull())
      .addColumn("client_time", "double precision", (c) => c.notNull())
      .addColumn("adjusted_time", "double precision", (c) => c.notNull())
      .addColumn("source", "text", (c) => c.notNull())
      .addColumn("page_url", "text", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("health_events_received_idx").on("health_events").column("received_at").execute()
    await schema.createIndex("health_events_user_idx").on("health_events").column("user_id").execute()

    await schema.createTable("metering")
      .addColumn("id", "integer", id)
      .addColumn("user_id", "integer", userId)
      .addColumn("token_id", "text", (c) => c.notNull())
      .addColumn("factor", "double precision", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .execute()
    await schema.createIndex("metering_received_idx").on("metering").column("received_at").execute()
    await schema.createIndex("metering_user_idx").on("metering").column("user_id").execute()

    // Absent row = default permissions; operators only store the exceptions.
    await schema.createTable("player_permissions")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("no_metering", "boolean", (c) => c.notNull().defaultTo(false))
      .execute()
  }
  return { up }
}

// Health events also say what was watched (the analytics ids) and which optional parts of the
// player ran (SPEC §7 `ids`, `plugins`), kept as the JSON they arrived as. Older rows get empties.
function healthIdsAndPlugins(): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    await db.schema.alterTable("health_events").addColumn("ids", "text", (c) => c.notNull().defaultTo("{}")).execute()
    await db.schema.alterTable("health_events").addColumn("plugins", "text", (c) => c.notNull().defaultTo("[]")).execute()
  }
  return { up }
}
