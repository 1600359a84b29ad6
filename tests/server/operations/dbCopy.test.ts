import { existsSync, readdirSync } from "node:fs"
import path from "node:path"
import { sql } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { api } from "../../../src/domain/contract/api.ts"
import { buildApp } from "../../../src/server/app.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { type Config, loadConfig } from "../../../src/server/config.ts"
import type { Db } from "../../../src/server/db/database.ts"
import { dialects, sqliteHarness, type TestDatabase } from "../../support/dbHarness.ts"
import { tableNames, tableSnapshot } from "../../support/tableSnapshot.ts"
import { PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

const postgres = dialects.find((dialect) => dialect.name === "postgres")

// kept by each database's own migrations, or transient: not copied
const MIGRATIONS_OWN = ["kysely_migration", "kysely_migration_lock", "table_versions"]
const TRANSIENT = ["rate_limits", "job_leases"]

const at = (minute: number): string => new Date(Date.UTC(2026, 0, 15, 11, minute)).toISOString()

/** The source: rows in every table, made by the server and, for the rest, by SQL as the app writes them. */
async function fill(source: TestServer): Promise<{ token: string }> {
  await source.addUser({ email: "staff@example.com", staff: true })
  const viewer = await source.addUser({ email: "viewer@example.com", points: 3 })
  const token = await source.signIn("viewer@example.com")
  const db = source.db.kysely
  // ids with gaps, as deleted rows leave them: new rows on PostgreSQL must come after the largest
  await db
    .insertInto("users")
    .values({
      id: 1000,
      username: 'Zoë "quoted" O\'Brien',
      email: "old@example.com",
      password_hash: "x",
      is_staff: false,
      is_active: false,
      email_verified_at: null,
      invite_token: "old-invite",
      created_at: at(1)
    })
    .execute()
  await db
    .insertInto("streams")
    .values({
      id: 7,
      position: 1,
      title: "Sports 1",
      src: null,
      src_sldp: null,
      maintenance_mode: true,
      created_at: at(2),
      epg_channel_id: null
    })
    .execute()
  await db
    .insertInto("stream_feeds")
    .values({
      stream_id: 7,
      channel: "sports1",
      kind: "relay",
      upstream_url: "https://up.example/s.m3u8",
      always_on: true,
      created_at: at(2)
    })
    .execute()
  await db
    .insertInto("feed_health")
    .values({ channel: "sports1", instance: "a", state: "live", figures: "{}", updated_at: at(3) })
    .execute()
  await db
    .insertInto("settings")
    .values({ key: "siteName", value: JSON.stringify('Ünïcode "TV"\n') })
    .execute()
  await db
    .insertInto("maintenance")
    .values({ id: 1, maintenance_mode: true, title: "Back soon", first_row_text: "a", second_row_text: "", updated_at: at(4) })
    .execute()
  await db
    .insertInto("announcements")
    .values({ id: 40, token: "n1", title: "New", text: "Channel 3", created_at: at(5) })
    .execute()
  await db
    .insertInto("tickets")
    .values({ user_id: viewer.id, type: 2, subject: "Bill", description: "…", status: 3, created_at: at(6), resolved_at: at(7) })
    .execute()
  const invitation = await db
    .insertInto("invitations")
    .values({ inviter_id: viewer.id, new_user_id: 1000, new_user_email: "old@example.com", created_at: at(8), reward_given: at(9) })
    .returning("id")
    .executeTakeFirstOrThrow()
  await db
    .insertInto("reward_ledger")
    .values({ user_id: viewer.id, points: 1, reason: "invite", invitation_id: invitation.id, created_at: at(9) })
    .execute()
  await db
    .insertInto("payments")
    .values([
      {
        user_id: viewer.id,
        paypal_transaction_id: "PP-1",
        provider: "paypal",
        price: 9.99,
        fee: 0.65,
        currency: "USD",
        created_at: at(10),
        period_start: null,
        period_end: null
      },
      {
        user_id: null,
        paypal_transaction_id: null,
        provider: "btc",
        price: 10,
        fee: 0,
        currency: "BTC",
        created_at: at(11),
        period_start: at(11),
        period_end: at(12)
      }
    ])
    .execute()
  await db
    .insertInto("outbox")
    .values({
      to_address: "viewer@example.com",
      subject: "Hi",
      text_body: "t",
      html_body: "<p>t</p>",
      kind: "verify",
      next_attempt_at: at(12),
      last_error: null,
      created_at: at(12),
      sent_at: null
    })
    .execute()
  await db
    .insertInto("one_time_tokens")
    .values({
      purpose: "reset",
      token_hash: "h1",
      user_id: viewer.id,
      new_email: null,
      created_at: at(13),
      expires_at: at(50),
      used_at: null,
      session_id: null
    })
    .execute()
  await db
    .insertInto("sign_in_links")
    .values({ token_hash: "h2", user_id: viewer.id, created_at: at(13), expires_at: at(28), used_at: at(14) })
    .execute()
  await db
    .insertInto("reminders")
    .values({
      id: 4,
      user_id: viewer.id,
      stream_id: 7,
      channel_id: "sports1.example.tv",
      start_at: at(40),
      stop_at: at(41),
      title: "Kick-off",
      lead_minutes: 10,
      remind_at: at(39),
      time_zone: "Europe/Oslo",
      state: "pending",
      created_at: at(13),
      notified_at: null
    })
    .execute()
  await db
    .insertInto("calendar_feeds")
    .values({ user_id: viewer.id, token_hash: "c1", created_at: at(13) })
    .execute()
  await db
    .insertInto("password_reset_requests")
    .values({ email_hash: "e1", network: "10.0.0.1", created_at: at(14) })
    .execute()
  await db
    .insertInto("player_connections")
    .values({
      user_id: viewer.id,
      session_id: 1,
      token: "p1",
      stream_id: "7",
      app: "tv",
      ip: "10.0.0.1",
      network: "10.0.0.1",
      first_seen: at(15),
      last_seen: at(16),
      ended_at: null,
      ended_reason: null
    })
    .execute()
  await db
    .insertInto("unknown_viewers")
    .values({ ip: "2001:db8::1", channel: "sports1", first_seen: at(15), last_seen: at(16) })
    .execute()
  await db
    .insertInto("stream_qoe_samples")
    .values({ stream_id: "7", kind: "ttff", value: 412.5, at: at(16) })
    .execute()
  await db
    .insertInto("analytics_events")
    .values({
      user_id: viewer.id,
      event: "play",
      video_type: "live",
      sitegroup_id: "1",
      media_id: "7",
      session_id: "s",
      player_id: "p",
      position: "[1,2]",
      created: 1768474800123.5,
      received_at: at(17),
      ip: "10.0.0.1"
    })
    .execute()
  await db
    .insertInto("health_events")
    .values({
      user_id: null,
      session_id: "s",
      device_id: "d",
      version: "1",
      event: "stall",
      current_time: 1.25,
      client_time: 2,
      adjusted_time: 3,
      source: "hls",
      page_url: "/watch",
      received_at: at(18),
      ip: "10.0.0.1"
    })
    .execute()
  await db
    .insertInto("metering")
    .values({ user_id: viewer.id, token_id: "t", factor: 0.5, received_at: at(19) })
    .execute()
  await db.insertInto("player_permissions").values({ user_id: viewer.id, no_metering: true }).execute()
  await db
    .insertInto("guide_channels")
    .values({ id: "sport1.tv", name: "Sport 1", source: "xmltv", updated_at: at(20) })
    .execute()
  // more rows than one batch holds
  const programmes = Array.from({ length: 4_500 }, (_, index) => ({
    channel_id: "sport1.tv",
    start_at: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
    stop_at: new Date(Date.UTC(2026, 0, 1) + (index + 1) * 60_000).toISOString(),
    title: `Programme ${index}`,
    subtitle: index % 2 === 0 ? "" : "part two"
  }))
  for (let start = 0; start < programmes.length; start += 500)
    await db
      .insertInto("guide_programmes")
      .values(programmes.slice(start, start + 500))
      .execute()
  await db
    .insertInto("guide_staging")
    .values({ import_id: `${at(21)}-x`, channel_id: "sport1.tv", start_at: at(30), stop_at: at(40), title: "Later", subtitle: "" })
    .execute()
  await db
    .insertInto("audit_log")
    .values({ at: at(22), actor: "cli:ann", actor_user_id: null, action: "stream.add", target: "7", detail: "{}", address: null })
    .execute()
  // transient: not carried over
  await db
    .insertInto("rate_limits")
    .values({ key: "k", count: 3, closes_at: Date.UTC(2026, 0, 15, 12, 1) })
    .execute()
  await db
    .insertInto("job_leases")
    .values({ name: "mail", holder: "a", leased_until: at(59) })
    .execute()
  return { token }
}

/** Each table's rows keyed by primary key (the whole row where there is none), with sorted columns. */
async function rowsByKey(db: Db, keys: ReadonlyMap<string, ReadonlyArray<string>>): Promise<Record<string, Record<string, unknown>>> {
  const tables: Record<string, Record<string, unknown>> = {}
  for (const name of await tableNames(db)) {
    if (MIGRATIONS_OWN.includes(name) || TRANSIENT.includes(name)) continue
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db.kysely)
    const byKey: Record<string, unknown> = {}
    for (const row of rows) {
      const sorted = Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)))
      const key =
        keys
          .get(name)
          ?.map((column) => String(row[column]))
          .join("|") ?? JSON.stringify(sorted)
      byKey[key] = sorted
    }
    tables[name] = byKey
  }
  return tables
}

async function primaryKeys(db: Db): Promise<ReadonlyMap<string, ReadonlyArray<string>>> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select kcu.table_name, kcu.column_name
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name
    where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = current_schema()
    order by kcu.table_name, kcu.ordinal_position`.execute(db.kysely)
  const keys = new Map<string, Array<string>>()
  for (const row of rows) keys.set(row.table_name, [...(keys.get(row.table_name) ?? []), row.column_name])
  return keys
}

const count = async (db: Db, table: string): Promise<number> =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely)).rows[0]?.n)

describe.skipIf(postgres === undefined)("db:copy: moving from SQLite to PostgreSQL", () => {
  let source: TestServer
  let target: TestDatabase
  beforeEach(async () => {
    source = await startTestServer(sqliteHarness)
    // a fresh schema the command migrates itself
    target = await (postgres ?? sqliteHarness).create({ migrate: false })
  })
  afterEach(async () => {
    await target?.dispose()
    await source?.dispose()
  })

  const sqliteConfig = (): Config => loadConfig({ DATA_DIR: source.config.dataDir })
  const admin = async (config: Config, ...argv: Array<string>): Promise<{ code: number; output: string }> => {
    const lines: Array<string> = []
    const code = await runAdmin(argv, { config, out: (text) => lines.push(text) })
    return { code, output: lines.join("\n") }
  }
  const targetUrl = (): string => target.databaseUrl ?? ""

  it("copies every row of every table with its id, and a server on PostgreSQL carries on from them", async () => {
    const { token } = await fill(source)
    for (const name of await tableNames(source.db)) {
      if (!MIGRATIONS_OWN.includes(name)) expect(await count(source.db, name), `rows in ${name}`).toBeGreaterThan(0)
    }
    // the server is stopped before the move
    await source.app.close()
    const before = await tableSnapshot(source.db)

    const copied = await admin(sqliteConfig(), "db:copy", "--to", targetUrl())
    expect(copied.code, copied.output).toBe(0)
    expect(copied.output).toMatch(/^Copied \d+ rows in \d+ tables from .*app\.db to postgres:\/\/.* in [\d.]+ s; the row counts match\.$/m)
    expect(copied.output).toMatch(/^ {2}guide_programmes 4500$/m)
    expect(copied.output).toContain(`Next: set DATABASE_URL=${targetUrl()}`)

    const keys = await primaryKeys(target.db)
    expect(await rowsByKey(target.db, keys)).toEqual(await rowsByKey(source.db, keys))
    for (const name of TRANSIENT) expect(await count(target.db, name), name).toBe(0)
    // the source was only read, and no snapshot is left behind
    expect(await tableSnapshot(source.db)).toEqual(before)
    const scratch = path.join(source.config.dataDir, "backups")
    expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([])

    // table_versions as PostgreSQL's migrations leave it (it announces changes instead of counting), with its triggers
    const followed = (await source.db.kysely.selectFrom("table_versions").select("name").orderBy("name").execute()).map((row) => row.name)
    expect(await target.db.kysely.selectFrom("table_versions").selectAll().orderBy("name").execute()).toEqual(
      followed.map((name) => ({ name, version: 0 }))
    )
    const { rows: triggers } = await sql<{ name: string }>`
      select t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not t.tgisinternal`.execute(target.db.kysely)
    expect(triggers.map((row) => row.name).sort()).toEqual(followed.map((name) => `${name}_announce_change`))

    // new rows take ids after the copied ones
    const user = await target.db.kysely
      .insertInto("users")
      .values({
        username: "new",
        email: "new@example.com",
        password_hash: "x",
        invite_token: "new-invite",
        email_verified_at: null,
        created_at: at(30)
      })
      .returning("id")
      .executeTakeFirstOrThrow()
    expect(user.id).toBe(1001)
    const note = await target.db.kysely
      .insertInto("announcements")
      .values({ token: "n2", title: "Next", text: "x", created_at: at(31) })
      .returning("id")
      .executeTakeFirstOrThrow()
    expect(note.id).toBe(41)

    // a server on PostgreSQL: the session from SQLite is still signed in, the password still signs in
    const app = await buildApp({
      config: { ...source.config, databaseUrl: targetUrl() },
      db: target.db,
      now: () => source.clock,
      housekeeping: { firstAfterMs: 24 * 60 * 60 * 1000 }
    })
    try {
      const authenticated = await app.inject({ method: "GET", url: api.isAuthenticated.path, headers: { token } })
      expect(authenticated.json()).toMatchObject({ success: true })
      const login = await app.inject({
        method: "POST",
        url: api.login.path,
        payload: { email: "staff@example.com", password: PASSWORD },
        remoteAddress: "10.9.9.9"
      })
      expect(login.json(), login.body).toMatchObject({ success: true })
    } finally {
      await app.close()
    }
    const listed = await admin(loadConfig({ DATA_DIR: target.dataDir, DATABASE_URL: targetUrl() }), "user:list")
    expect(listed.code, listed.output).toBe(0)
    for (const email of ["staff@example.com", "viewer@example.com", "old@example.com", "new@example.com"])
      expect(listed.output).toContain(email)
  })

  it("refuses in one line: a URL that is not PostgreSQL's, PostgreSQL as the source, a target with rows; a failed copy keeps nothing", async () => {
    const viewer = await source.addUser({ email: "viewer@example.com" })
    await source.app.close()
    const oneLine = (output: string) => {
      expect(output).not.toMatch(/^\s+at /m)
      return output.split("\n").filter((line) => line.startsWith("db:copy:"))
    }

    const mysql = await admin(sqliteConfig(), "db:copy", "--to", "mysql://root@127.0.0.1/streamhub")
    expect(mysql.code).toBe(2)
    expect(oneLine(mysql.output)).toEqual(["db:copy: --to must be a postgres:// URL (got one starting mysql://)"])
    expect((await admin(sqliteConfig(), "db:copy", "--to", "not a url")).code).toBe(2)

    const fromPostgres = await admin(loadConfig({ DATA_DIR: target.dataDir, DATABASE_URL: targetUrl() }), "db:copy", "--to", targetUrl())
    expect(fromPostgres.code).toBe(1)
    expect(oneLine(fromPostgres.output)).toEqual([
      expect.stringMatching(/the configured database is PostgreSQL already, so there is nothing to move/)
    ])

    // PostgreSQL takes no NUL in text: that row fails the copy after the accounts went in, and none stays
    await source.db.kysely
      .insertInto("tickets")
      .values({ user_id: viewer.id, type: 5, subject: "a\u0000b", description: "x", created_at: at(1), resolved_at: null })
      .execute()
    const failed = await admin(sqliteConfig(), "db:copy", "--to", targetUrl())
    expect(failed.code).toBe(1)
    expect(oneLine(failed.output)).toEqual([expect.stringMatching(/^db:copy: copying tickets failed: .*; nothing was kept$/)])
    expect(failed.output).toMatch(/^Copying users: 1 of 1 rows$/m)
    for (const name of await tableNames(target.db)) {
      if (!MIGRATIONS_OWN.includes(name) && name !== "server_keys") expect(await count(target.db, name), name).toBe(0)
    }
    // the key the target's migrations made is back too
    expect(await count(target.db, "server_keys")).toBe(1)
    await source.db.kysely.deleteFrom("tickets").execute()

    expect((await admin(sqliteConfig(), "db:copy", "--to", targetUrl())).code).toBe(0)
    await source.addUser({ email: "later@example.com" })
    const again = await admin(sqliteConfig(), "db:copy", "--to", targetUrl())
    expect(again.code).toBe(1)
    expect(oneLine(again.output)).toEqual([
      expect.stringMatching(/the target already has rows \(in .*users.*\).*add --force to empty its tables first/)
    ])
    expect(await count(target.db, "users")).toBe(1)

    const forced = await admin(sqliteConfig(), "db:copy", "--to", targetUrl(), "--force")
    expect(forced.code, forced.output).toBe(0)
    expect((await target.db.kysely.selectFrom("users").select("email").orderBy("id").execute()).map((row) => row.email)).toEqual([
      "viewer@example.com",
      "later@example.com"
    ])
  })
})
