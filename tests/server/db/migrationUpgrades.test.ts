import { createHash } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { sql } from "kysely"
import { describe, expect, it } from "vitest"
import { DatabaseNewerThanCode, migrateToLatest } from "../../../src/server/db/migrations.ts"
import { dialects } from "../../support/dbHarness.ts"

const root = join(import.meta.dirname, "..", "..", "..")
const MIGRATIONS = "src/server/db/migrations"

describe("landed migrations", () => {
  it("never change: databases in the field have run them as they were (a change is a new migration)", async () => {
    const landed = JSON.parse(await readFile(join(root, "tests/fixtures/landedMigrations.json"), "utf8")) as Record<string, string>
    const files = (await readdir(join(root, MIGRATIONS))).map((file) => `${MIGRATIONS}/${file}`).sort()
    const now: Record<string, string> = {}
    for (const file of files)
      now[file] = createHash("sha256")
        .update(await readFile(join(root, file)))
        .digest("hex")
    const changed = Object.keys(landed).filter((file) => now[file] !== landed[file])
    expect(changed, "landed migrations whose text changed (or that are gone): restore them and write a new migration").toEqual([])
    const unlisted = files.filter((file) => landed[file] === undefined)
    expect(unlisted, "a new migration lands with its hash in tests/fixtures/landedMigrations.json").toEqual([])
  })
})

describe.each(dialects)("upgrading a database on $name", (dialect) => {
  it("repairs a database that ran 0009 before it made stream_qoe_samples", async () => {
    const old = await dialect.create()
    try {
      const db = old.db.kysely
      // as 0009 left it when it landed: no samples table; and what came after 0013 not run yet
      await db.schema.dropTable("stream_qoe_samples").execute()
      await db.schema.dropIndex("password_reset_requests_network_idx").execute()
      await db.schema.alterTable("password_reset_requests").dropColumn("network").execute()
      await db.schema.dropTable("audit_log").execute()
      await db.schema.dropTable("sign_in_links").execute()
      await db.schema.alterTable("one_time_tokens").dropColumn("session_id").execute()
      await db.schema.dropTable("reminders").execute()
      await db.schema.dropTable("calendar_feeds").execute()
      for (const table of ["settings", "maintenance", "announcements"]) {
        if (dialect.name === "sqlite") {
          for (const event of ["insert", "update", "delete"]) await sql`drop trigger ${sql.id(`${table}_${event}_version`)}`.execute(db)
        } else await sql`drop trigger ${sql.id(`${table}_announce_change`)} on ${sql.table(table)}`.execute(db)
        await sql`delete from table_versions where name = ${table}`.execute(db)
      }
      await sql`delete from kysely_migration where name > '0014'`.execute(db)
      expect(await migrateToLatest(old.db)).toEqual([
        "0014_repair_qoe_samples",
        "0015_reset_request_networks",
        "0016_audit_log",
        "0017_sign_in_links",
        "0018_reminders",
        "0019_shell_change_signals"
      ])
      await sql`insert into stream_qoe_samples (stream_id, kind, value, at) values ('1', 'firstFrame', 1200, '2026-11-28T00:00:00.000Z')`.execute(
        db
      )
      const rows = await sql<{ count: number | string }>`select count(*) as count from stream_qoe_samples`.execute(db)
      expect(Number(rows.rows[0]?.count)).toBe(1)
      // where the table was there all along, the repair changes nothing
      expect(await migrateToLatest(old.db)).toEqual([])
    } finally {
      await old.dispose()
    }
  })

  it("refuses a database a newer version migrated, saying both versions and what to do, and touches nothing", async () => {
    const newer = await dialect.create()
    try {
      const db = newer.db.kysely
      await sql`insert into kysely_migration (name, timestamp) values ('0099_from_the_future', '2027-01-01T00:00:00.000Z')`.execute(db)
      const refused = await migrateToLatest(newer.db).then(
        () => undefined,
        (error: unknown) => error
      )
      expect(refused).toBeInstanceOf(DatabaseNewerThanCode)
      expect((refused as Error).message).toMatch(
        /migrated by a newer version of StreamHub: its schema is at 0099_from_the_future, this version knows up to 0019_shell_change_signals\. Run the newer version again, or restore the backup/
      )
    } finally {
      await newer.dispose()
    }
  })
})
