import { sql } from "kysely"
import { type Migration, Migrator } from "kysely/migration"
import type { Db, Dialect } from "./database.ts"
import { auditLog } from "./migrations/auditLog.ts"
import { guideSchema } from "./migrations/guideSchema.ts"
import { healthIdsAndPlugins } from "./migrations/healthIdsAndPlugins.ts"
import { initialSchema } from "./migrations/initialSchema.ts"
import { liveConnections } from "./migrations/liveConnections.ts"
import { mailAndTokens } from "./migrations/mailAndTokens.ts"
import { passwordResetRequests } from "./migrations/passwordResetRequests.ts"
import { rateLimits } from "./migrations/rateLimits.ts"
import { reminders } from "./migrations/reminders.ts"
import { repairQoeSamples } from "./migrations/repairQoeSamples.ts"
import { reportIndexes } from "./migrations/reportIndexes.ts"
import { resetRequestNetworks } from "./migrations/resetRequestNetworks.ts"
import { shellChangeSignals } from "./migrations/shellChangeSignals.ts"
import { signInLinks } from "./migrations/signInLinks.ts"
import { streamFeeds } from "./migrations/streamFeeds.ts"
import { tableVersions } from "./migrations/tableVersions.ts"
import { telemetrySchema } from "./migrations/telemetrySchema.ts"
import { viewerPagesSchema } from "./migrations/viewerPagesSchema.ts"

// Migrations live in code, not in files found at run time, so the bundle and the tests always
// carry exactly the schema the queries were written against. Names sort in order of application.
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    "0001_initial": initialSchema(dialect),
    "0002_mail_and_tokens": mailAndTokens(dialect),
    "0003_password_reset_requests": passwordResetRequests(dialect),
    "0004_telemetry": telemetrySchema(dialect),
    "0005_health_ids_plugins": healthIdsAndPlugins(),
    "0006_guide": guideSchema(dialect),
    "0007_rewards_payments_tickets": viewerPagesSchema(dialect),
    "0008_report_indexes": reportIndexes(),
    "0009_live_connections": liveConnections(dialect),
    "0011_rate_limits": rateLimits(),
    "0012_table_versions": tableVersions(dialect),
    "0013_stream_feeds": streamFeeds(dialect),
    "0014_repair_qoe_samples": repairQoeSamples(dialect),
    "0015_reset_request_networks": resetRequestNetworks(),
    "0016_audit_log": auditLog(dialect),
    "0017_sign_in_links": signInLinks(dialect),
    "0018_reminders": reminders(dialect),
    "0019_shell_change_signals": shellChangeSignals(dialect)
  }
}

/** The database was migrated by a newer build than this one: this build does not know its schema. */
export class DatabaseNewerThanCode extends Error {
  override readonly name = "DatabaseNewerThanCode"
}

// Migrations this build does not have, already run on the database: a newer build ran them, and
// this one would misread what they made. Refused before anything is touched.
async function refuseNewerDatabase(db: Db): Promise<void> {
  let executed: Array<{ name: string }>
  try {
    const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely)
    executed = result.rows
  } catch {
    // a database never migrated has no bookkeeping table yet
    return
  }
  const known = Object.keys(migrations(db.dialect)).sort()
  const unknown = executed.map((row) => row.name).filter((name) => !known.includes(name))
  if (unknown.length === 0) return
  throw new DatabaseNewerThanCode(
    `The database was migrated by a newer version of StreamHub: its schema is at ${unknown.at(-1)}, ` +
      `this version knows up to ${known.at(-1)}. Run the newer version again, or restore the backup made before the upgrade ` +
      "and run this version on it."
  )
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
    // 3F000: a schema, 42P01: a table, 42703: a column (another schema's migration dropping it),
    // gone between the catalogue's listing and the lookup
    const code = (e as { code?: unknown }).code
    if (code === "3F000" || code === "42P01" || code === "42703") return true
  }
  return false
}

// Safe to run from several processes at once, also outside the start-up lock (tests, tools):
// on PostgreSQL Kysely runs the pending migrations under its own database-wide advisory lock, all
// of them with their bookkeeping rows in one transaction, deciding what is pending only once it
// holds the lock. Its two bookkeeping tables are created before that lock; a process that loses
// that race sees its `create` fail, finds the table there and carries on.
async function migrateOnce(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations(db.dialect) },
    // Kysely looks for its bookkeeping table in every schema it can see unless told which one;
    // with several schemas in one PostgreSQL database (tests, shared servers) it would find
    // another schema's table and skip creating its own.
    ...(db.dialect === "postgres" ? { migrationTableSchema: await currentSchema(db) } : {})
  })
  await refuseNewerDatabase(db)
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
