import { mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { sql } from "kysely"
import { describe, expect, it } from "vitest"
import { openDatabase } from "../../../src/server/db/database.ts"
import { autovacuumProblem, autovacuumWarning, reclaimFreePages } from "../../../src/server/db/freePages.ts"
import { migrateToLatest } from "../../../src/server/db/migrations.ts"
import { pruneHealthOverBudget } from "../../../src/server/telemetry/housekeeping.ts"
import { dialects } from "../../support/dbHarness.ts"

const row = (n: number) => ({
  user_id: null,
  session_id: `s${n}`,
  device_id: "d",
  version: "3.4.5",
  event: "timeupdate",
  current_time: n,
  client_time: n,
  adjusted_time: n,
  source: `/live/demo1/index.m3u8?${"x".repeat(1500)}`,
  page_url: "/player",
  ids: "{}",
  plugins: "[]",
  received_at: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
  ip: "10.0.0.1"
})

describe("space given back (SQLite)", () => {
  it("shrinks the file once a flood of rows is pruned", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "streamhub-space-"))
    const db = await openDatabase({ dataDir })
    try {
      await migrateToLatest(db)
      for (let start = 0; start < 6000; start += 500) {
        await db.kysely
          .insertInto("health_events")
          .values(Array.from({ length: 500 }, (_, n) => row(start + n)))
          .execute()
      }
      const size = async () => {
        await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely)
        return (await stat(join(dataDir, "app.db"))).size
      }
      const full = await size()
      expect(await pruneHealthOverBudget(db.kysely, { healthRowBudget: 100 })).toBe(5900)
      expect(await size()).toBe(full)
      expect(await reclaimFreePages(db.kysely)).toBeGreaterThan(1000)
      expect(await size()).toBeLessThan(full / 4)
      expect(await db.kysely.selectFrom("health_events").select("id").execute()).toHaveLength(100)
      expect(await reclaimFreePages(db.kysely)).toBe(0)
    } finally {
      await db.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it("turns a file made before incremental vacuum into one that gives space back, keeping its rows", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "streamhub-space-"))
    const older = new DatabaseSync(join(dataDir, "app.db"))
    older.exec("PRAGMA journal_mode=WAL")
    older.exec("create table kept (x text)")
    older.exec("insert into kept values ('still here')")
    expect(older.prepare("PRAGMA auto_vacuum").get()).toEqual({ auto_vacuum: 0 })
    older.close()
    const db = await openDatabase({ dataDir })
    try {
      const { rows } = await sql<{ auto_vacuum: number }>`pragma auto_vacuum`.execute(db.kysely)
      expect(rows[0]?.auto_vacuum).toBe(2)
      expect((await sql<{ x: string }>`select x from kept`.execute(db.kysely)).rows).toEqual([{ x: "still here" }])
    } finally {
      await db.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})

describe("PostgreSQL's autovacuum", () => {
  it("is checked at start: off, or without its statistics, is a warning that says what to do", () => {
    expect(autovacuumProblem({ autovacuum: "on", track_counts: "on" })).toBeUndefined()
    expect(autovacuumProblem({ autovacuum: "off", track_counts: "on" })).toBe(
      "PostgreSQL's autovacuum is off: the space of pruned rows is never reused and the database keeps growing. " +
        "Turn it on in postgresql.conf (the default) and reload."
    )
    expect(autovacuumProblem({ autovacuum: "off", track_counts: "off" })).toMatch(
      /^PostgreSQL's autovacuum is off and track_counts is off: .* Turn them on/
    )
  })

  it.each(dialects)("reads the server's own settings ($name)", async (dialect) => {
    const test = await dialect.create()
    try {
      const warning = await autovacuumWarning(test.db.kysely)
      if (dialect.name === "sqlite") expect(warning).toBeUndefined()
      else {
        const { rows } = await sql<{ autovacuum: string }>`show autovacuum`.execute(test.db.kysely)
        if (rows[0]?.autovacuum === "on") expect(warning).toBeUndefined()
        else expect(warning).toMatch(/^PostgreSQL's autovacuum is off/)
      }
    } finally {
      await test.dispose()
    }
  })
})
