import { chmod, mkdtemp, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sql } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as sessions from "../../../src/server/account/sessionsRepo.ts"
import * as users from "../../../src/server/account/usersRepo.ts"
import { type Db, inTransaction, isUniqueViolation, openDatabase } from "../../../src/server/db/database.ts"
import { migrateToLatest } from "../../../src/server/db/migrations.ts"
import { insertAnnouncement, latestAnnouncement } from "../../../src/server/shell/announcementsRepo.ts"
import { getMaintenance, setMaintenance } from "../../../src/server/shell/maintenanceRepo.ts"
import { getSetting, getSettings, setSetting, setSettings } from "../../../src/server/shell/settingsRepo.ts"
import * as streams from "../../../src/server/streams/streamsRepo.ts"
import { insertTicket } from "../../../src/server/support/ticketsRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const T0 = "2025-03-01T10:00:00.123Z"
const LATER = "2025-03-02T10:00:00.000Z"

const newUser = (email: string, extra: Partial<users.NewUserInput> = {}): users.NewUserInput => ({
  username: email.split("@")[0] ?? email,
  email,
  password_hash: "hash",
  invite_token: `invite-${email}`,
  created_at: T0,
  ...extra
})

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error
  )
}

describe.each(dialects)("database on $name", (dialect) => {
  let test: TestDatabase
  let db: Db
  beforeEach(async () => {
    test = await dialect.create()
    db = test.db
  })
  afterEach(() => test.dispose())

  it("migrates from empty, and again without doing anything", async () => {
    const fresh = await dialect.create({ migrate: false })
    try {
      expect(await migrateToLatest(fresh.db)).toEqual([
        "0001_initial",
        "0002_mail_and_tokens",
        "0003_password_reset_requests",
        "0004_telemetry",
        "0005_health_ids_plugins",
        "0006_guide",
        "0007_rewards_payments_tickets",
        "0008_report_indexes",
        "0009_live_connections",
        "0011_rate_limits",
        "0012_table_versions",
        "0013_stream_feeds",
        "0014_repair_qoe_samples",
        "0015_reset_request_networks",
        "0016_audit_log",
        "0017_sign_in_links",
        "0018_reminders",
        "0019_shell_change_signals"
      ])
      expect(await migrateToLatest(fresh.db)).toEqual([])
      // PostgreSQL introspection sees every schema; keep this test's own.
      const schema = fresh.databaseUrl ? new URL(fresh.databaseUrl).searchParams.get("schema") : undefined
      const tables = (await fresh.db.kysely.introspection.getTables())
        .filter((t) => t.schema === schema)
        .map((t) => t.name)
        .sort()
      expect(tables).toEqual([
        "analytics_events",
        "announcements",
        "audit_log",
        "calendar_feeds",
        "feed_health",
        "guide_channels",
        "guide_programmes",
        "guide_staging",
        "health_events",
        "invitations",
        "job_leases",
        "maintenance",
        "metering",
        "one_time_tokens",
        "outbox",
        "password_reset_requests",
        "payments",
        "player_connections",
        "player_permissions",
        "rate_limits",
        "reminders",
        "reward_ledger",
        "server_keys",
        "sessions",
        "settings",
        "sign_in_links",
        "stream_feeds",
        "stream_qoe_samples",
        "streams",
        "table_versions",
        "tickets",
        "unknown_viewers",
        "users"
      ])
    } finally {
      await fresh.dispose()
    }
  })

  it("round-trips users with real booleans, numbers and identical timestamps", async () => {
    const created = await users.insertUser(db.kysely, newUser("Ann@Example.COM", { email_verified_at: LATER }))
    expect(created).toEqual({
      id: expect.any(Number),
      username: "Ann",
      email: "ann@example.com",
      password_hash: "hash",
      is_staff: false,
      is_active: true,
      email_verified_at: LATER,
      invite_token: "invite-Ann@Example.COM",
      created_at: T0
    })
    expect(await users.findUserById(db.kysely, created.id)).toEqual(created)
    expect(await users.findUserByEmail(db.kysely, " ANN@example.com")).toEqual(created)
    expect(await users.findUserByEmail(db.kysely, "nobody@example.com")).toBeUndefined()

    expect(await users.countStaff(db.kysely)).toBe(0)
    const staff = await users.insertUser(db.kysely, newUser("boss@example.com", { is_staff: true, is_active: false }))
    expect(staff.is_staff).toBe(true)
    expect(staff.is_active).toBe(false)
    expect(await users.countStaff(db.kysely)).toBe(1)

    expect(await users.updatePasswordHash(db.kysely, created.id, "new-hash")).toBe(true)
    expect(await users.updatePasswordHash(db.kysely, 999_999, "x")).toBe(false)
    expect((await users.findUserById(db.kysely, created.id))?.password_hash).toBe("new-hash")
    expect((await users.listUsers(db.kysely)).map((u) => u.email)).toEqual(["ann@example.com", "boss@example.com"])
  })

  it("refuses a second account with the same email in any case", async () => {
    await users.insertUser(db.kysely, newUser("dup@example.com"))
    const error = await rejection(users.insertUser(db.kysely, newUser("DUP@example.com", { invite_token: "other" })))
    expect(isUniqueViolation(error)).toBe(true)
    expect(isUniqueViolation(new Error("x"))).toBe(false)
    expect(await users.listUsers(db.kysely)).toHaveLength(1)
  })

  it("finds live sessions with their user, touches and deletes them", async () => {
    const user = await users.insertUser(db.kysely, newUser("s@example.com", { is_staff: true }))
    const inserted = await sessions.insertSession(db.kysely, {
      user_id: user.id,
      token_hash: "h1",
      expires_at: LATER,
      is_mobile: true,
      user_agent: "UA",
      ip: "10.0.0.1",
      created_at: T0
    })
    expect(inserted).toMatchObject({ is_mobile: true, created_at: T0, last_seen_at: T0, expires_at: LATER })
    expect(await sessions.findSessionByTokenHash(db.kysely, "h1", T0)).toEqual({
      session_id: inserted.id,
      token_hash: "h1",
      is_mobile: true,
      user_agent: "UA",
      ip: "10.0.0.1",
      created_at: T0,
      last_seen_at: T0,
      expires_at: LATER,
      user_id: user.id,
      email: "s@example.com",
      username: "s",
      is_staff: true,
      is_active: true
    })
    expect(await sessions.findSessionByTokenHash(db.kysely, "h1", LATER)).toBeUndefined()
    expect(await sessions.findSessionByTokenHash(db.kysely, "unknown", T0)).toBeUndefined()

    const seen = "2025-03-01T11:00:00.000Z"
    expect(await sessions.touchSession(db.kysely, inserted.id, { ip: "10.0.0.2", last_seen_at: seen })).toBe(true)
    expect(await sessions.findSessionByTokenHash(db.kysely, "h1", T0)).toMatchObject({ ip: "10.0.0.2", last_seen_at: seen })
    expect(await sessions.touchSession(db.kysely, 999_999)).toBe(false)

    for (const hash of ["h2", "h3"]) {
      await sessions.insertSession(db.kysely, { user_id: user.id, token_hash: hash, expires_at: LATER })
    }
    expect(await sessions.deleteSessionByTokenHash(db.kysely, "h2")).toBe(true)
    expect(await sessions.deleteSessionByTokenHash(db.kysely, "h2")).toBe(false)
    expect(await sessions.deleteSessionsOfUser(db.kysely, user.id, "h1")).toBe(1)
    expect(await sessions.findSessionByTokenHash(db.kysely, "h1", T0)).toBeDefined()
    expect(await sessions.deleteSessionsOfUser(db.kysely, user.id)).toBe(1)
  })

  it("deletes a user's sessions with the user", async () => {
    const user = await users.insertUser(db.kysely, newUser("gone@example.com"))
    await sessions.insertSession(db.kysely, { user_id: user.id, token_hash: "h", expires_at: LATER })
    await db.kysely.deleteFrom("users").where("id", "=", user.id).execute()
    expect(await db.kysely.selectFrom("sessions").selectAll().execute()).toEqual([])
  })

  it("keeps streams in display order", async () => {
    const a = await streams.insertStream(db.kysely, { title: "A", src: "a.m3u8", created_at: T0 })
    const b = await streams.insertStream(db.kysely, { title: "B", tags: "lls,!Late", maintenance_mode: true })
    const first = await streams.insertStream(db.kysely, { title: "First", position: 0 })
    expect(a).toEqual({
      id: expect.any(Number),
      position: 1,
      title: "A",
      src: "a.m3u8",
      src_sldp: null,
      image_location: "",
      tags: "",
      tags_sldp: "",
      maintenance_mode: false,
      created_at: T0,
      epg_channel_id: null
    })
    expect(b).toMatchObject({ position: 2, maintenance_mode: true, tags: "lls,!Late" })
    expect((await streams.listStreams(db.kysely)).map((s) => s.title)).toEqual(["First", "A", "B"])
    expect(await streams.countStreams(db.kysely)).toBe(3)

    expect(await streams.setStreamMaintenance(db.kysely, a.id, true)).toBe(true)
    expect((await streams.findStream(db.kysely, a.id))?.maintenance_mode).toBe(true)
    expect(await streams.deleteStream(db.kysely, first.id)).toBe(true)
    expect(await streams.deleteStream(db.kysely, first.id)).toBe(false)
    expect(await streams.findStream(db.kysely, first.id)).toBeUndefined()
    expect(await streams.countStreams(db.kysely)).toBe(2)
  })

  it("round-trips settings as JSON and sets several atomically", async () => {
    expect(await getSettings(db.kysely)).toEqual({})
    const value = { price: 9.99, plans: [1, 3, 12], flags: { open: true, note: null }, name: "Ünïcode ✓" }
    await setSetting(db.kysely, "site", value)
    await setSetting(db.kysely, "count", 3)
    await setSetting(db.kysely, "count", 4)
    expect(await getSettings(db.kysely)).toEqual({ count: 4, site: value })
    expect(await getSetting(db.kysely, "missing")).toBeUndefined()

    await expect(setSettings(db.kysely, { count: 5, bad: undefined })).rejects.toThrow("not JSON-serialisable")
    expect(await getSetting(db.kysely, "count")).toBe(4)
    await setSettings(db.kysely, { count: 6, open: false })
    expect(await getSettings(db.kysely)).toEqual({ count: 6, open: false, site: value })
  })

  it("reports no maintenance until set, then the stored status", async () => {
    const off = { maintenance_mode: false, title: "", first_row_text: "", second_row_text: "" }
    expect(await getMaintenance(db.kysely)).toEqual(off)
    const row = await setMaintenance(db.kysely, { maintenance_mode: true, title: "Back soon" }, T0)
    expect(row).toEqual({ ...off, id: 1, maintenance_mode: true, title: "Back soon", updated_at: T0 })
    await setMaintenance(db.kysely, { first_row_text: "Upgrading" })
    expect(await getMaintenance(db.kysely)).toEqual({ ...off, maintenance_mode: true, title: "Back soon", first_row_text: "Upgrading" })
    await setMaintenance(db.kysely, { maintenance_mode: false })
    expect((await getMaintenance(db.kysely)).maintenance_mode).toBe(false)
  })

  it("returns the latest announcement and tickets that start open", async () => {
    expect(await latestAnnouncement(db.kysely)).toBeUndefined()
    await insertAnnouncement(db.kysely, { token: "a1", title: "Old", text: "x", created_at: T0 })
    const latest = await insertAnnouncement(db.kysely, { token: "a2", title: "New", text: "y", created_at: LATER })
    expect(await latestAnnouncement(db.kysely)).toEqual(latest)
    expect(isUniqueViolation(await rejection(insertAnnouncement(db.kysely, { token: "a1", title: "", text: "" })))).toBe(true)

    const user = await users.insertUser(db.kysely, newUser("t@example.com"))
    const ticket = await insertTicket(db.kysely, {
      user_id: user.id,
      type: 3,
      subject: "stream request",
      description: "More F1",
      created_at: T0
    })
    expect(ticket).toEqual({
      id: expect.any(Number),
      user_id: user.id,
      type: 3,
      subject: "stream request",
      description: "More F1",
      status: 1,
      created_at: T0,
      resolved_at: null,
      player_context: null,
      first_response_at: null
    })
  })

  it("gives counts, sums and prices as numbers", async () => {
    const user = await users.insertUser(db.kysely, newUser("p@example.com"))
    await db.kysely
      .insertInto("payments")
      .values([
        { user_id: user.id, paypal_transaction_id: "TX1", price: 9.99, created_at: T0 },
        { user_id: user.id, paypal_transaction_id: "TX2", price: 20, created_at: LATER }
      ])
      .execute()
    const totals = await db.kysely
      .selectFrom("payments")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("price").as("revenue"), eb.fn.sum<number>("id").as("ids")])
      .executeTakeFirstOrThrow()
    // Prices are doubles on both dialects, so sums carry float error the caller rounds away.
    expect(totals).toEqual({ n: 2, revenue: expect.closeTo(29.99, 9), ids: 3 })
    const rows = await db.kysely.selectFrom("payments").select(["price", "provider"]).orderBy("id").execute()
    expect(rows).toEqual([
      { price: 9.99, provider: "paypal" },
      { price: 20, provider: "paypal" }
    ])
    const { rows: raw } = await sql<{ n: unknown }>`select count(*) as n from users`.execute(db.kysely)
    expect(raw).toEqual([{ n: 1 }])
  })

  it("rolls a transaction back as a whole", async () => {
    const failing = inTransaction(db.kysely, async (trx) => {
      await streams.insertStream(trx, { title: "Half" })
      throw new Error("boom")
    })
    await expect(failing).rejects.toThrow("boom")
    expect(await streams.countStreams(db.kysely)).toBe(0)
  })
})

describe("the SQLite file", () => {
  it("is readable by the server's own user alone, whatever it was before, and so are its WAL files", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "streamhub-mode-"))
    try {
      const mode = async (file: string) => (await stat(join(dataDir, file))).mode & 0o777
      const fresh = await openDatabase({ dataDir })
      await migrateToLatest(fresh)
      expect(await mode("app.db")).toBe(0o600)
      expect(await mode("app.db-wal")).toBe(0o600)
      await fresh.close()
      // an older install's file, world-readable, is closed up on the next start
      await writeFile(join(dataDir, "app.db"), "", { flag: "a", mode: 0o644 })
      await chmod(join(dataDir, "app.db"), 0o644)
      const again = await openDatabase({ dataDir })
      expect(await mode("app.db")).toBe(0o600)
      await again.close()
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
