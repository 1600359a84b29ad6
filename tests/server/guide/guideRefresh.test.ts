import { setTimeout as sleep } from "node:timers/promises"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { buildApp } from "../../../src/server/app.ts"
import { loadConfig } from "../../../src/server/config.ts"
import { leaseOf } from "../../../src/server/db/jobLease.ts"
import { refreshHolder } from "../../../src/server/guide/guideFeature.ts"
import { GUIDE_REFRESH_LEASE, type GuideRefresh, startGuideRefresh } from "../../../src/server/guide/guideRefresh.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { TEST_TIMEOUT_MS } from "../../support/timeouts.ts"
import { guideSnapshot, hourly, serveGuide, stagedRows, xmltv } from "./guideFixtures.ts"

const HOUR = 60 * 60 * 1000
const GUIDE = xmltv([{ id: "a.tv", name: "Alpha" }], hourly("a.tv", "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z", "Slot"))

describe.each(dialects)("the guide refresh job ($name)", (dialect) => {
  let database: TestDatabase
  let clock = Date.parse("2026-11-22T12:00:00Z")
  const logs: Array<string> = []
  const jobs: Array<GuideRefresh> = []
  beforeEach(async () => {
    database = await dialect.create()
    clock = Date.parse("2026-11-22T12:00:00Z")
    logs.length = 0
  })
  afterEach(async () => {
    await Promise.all(jobs.splice(0).map((job) => job.stop()))
    await database.dispose()
  })

  const start = (holder: string, url: string) => {
    const job = startGuideRefresh({
      db: database.db.kysely,
      now: () => clock,
      log: { info: (m) => logs.push(`info ${holder}: ${m}`), warn: (m) => logs.push(`warn ${holder}: ${m}`) },
      guideUrl: async () => url,
      holder,
      // the tests run it themselves
      firstAfterMs: 24 * HOUR
    })
    jobs.push(job)
    return job
  }

  it("imports the guideUrl and holds the lease for its interval", async () => {
    const served = await serveGuide(GUIDE)
    try {
      const run = await start("one", served.url).runNow()
      expect(run).toMatchObject({ ran: true, imported: { programmes: 24, channels: 1 } })
      expect(logs).toEqual([
        expect.stringMatching(
          /^info one: guide refresh: Imported 24 programmes on 1 channel from http:\/\/127\.0\.0\.1:\d+\/guide\.xml in /
        )
      ])
      expect(await leaseOf(database.db.kysely, GUIDE_REFRESH_LEASE)).toEqual({ holder: "one", leasedUntil: "2026-11-22T18:15:00.000Z" })
      expect((await guideSnapshot(database.db.kysely)).programmes).toHaveLength(24)
    } finally {
      await served.close()
    }
  })

  it("runs on one instance when several share the database, until it stops or its lease runs out", async () => {
    const served = await serveGuide(GUIDE, { parts: 3, delayMs: 20 })
    try {
      const [a, b, c] = [start("a", served.url), start("b", served.url), start("c", served.url)]
      const runs = await Promise.all([a.runNow(), b.runNow(), c.runNow()])
      expect(runs.filter((run) => run.ran)).toHaveLength(1)
      expect(served.requests()).toBe(1)
      const holder = (await leaseOf(database.db.kysely, GUIDE_REFRESH_LEASE))?.holder
      const jobOf = { a, b, c }
      const [first, ...others] = [holder, ...["a", "b", "c"].filter((name) => name !== holder)] as [
        "a" | "b" | "c",
        "a" | "b" | "c",
        "a" | "b" | "c"
      ]

      // six hours on, the holder's own timer runs it again; the others still find it taken
      clock += 6 * HOUR
      expect((await jobOf[others[0]].runNow()).ran).toBe(false)
      expect((await jobOf[first].runNow()).ran).toBe(true)
      // a holder that stops gives the lease up at once
      await jobOf[first].stop()
      expect((await jobOf[others[0]].runNow()).ran).toBe(true)
      // one that dies keeps it until it runs out (6 hours and a grace of 15 minutes), unless the
      // same instance comes back: it holds it under the same name (refreshHolder)
      clock += 6 * HOUR + 14 * 60_000
      expect((await jobOf[others[1]].runNow()).ran).toBe(false)
      clock += 2 * 60_000
      expect((await jobOf[others[1]].runNow()).ran).toBe(true)
      expect(served.requests()).toBe(4)
    } finally {
      await served.close()
    }
  })

  it("logs a warning and keeps the last good guide when a refresh fails", async () => {
    const good = await serveGuide(GUIDE)
    const job = start("one", good.url)
    await job.runNow()
    await good.close()
    const before = await guideSnapshot(database.db.kysely)

    const broken = await serveGuide(GUIDE.replace("</tv>", ""))
    const missing = await serveGuide(GUIDE, { status: 404 })
    try {
      for (const url of [broken.url, missing.url]) {
        clock += 6 * HOUR
        const failed = startGuideRefresh({
          db: database.db.kysely,
          now: () => clock,
          holder: "one",
          firstAfterMs: 24 * HOUR,
          guideUrl: async () => url,
          log: { info: (m) => logs.push(`info: ${m}`), warn: (m) => logs.push(`warn: ${m}`) }
        })
        jobs.push(failed)
        expect(await failed.runNow()).toMatchObject({ ran: true, failure: expect.any(String) })
      }
    } finally {
      await broken.close()
      await missing.close()
    }
    expect(logs.slice(1)).toEqual([
      expect.stringMatching(
        /^warn: guide refresh failed, the guide is unchanged: http:\/\/127\.0\.0\.1:\d+\/guide\.xml: line \d+, column \d+: unclosed tag: tv$/
      ),
      expect.stringMatching(
        /^warn: guide refresh failed, the guide is unchanged: http:\/\/127\.0\.0\.1:\d+\/guide\.xml: HTTP 404 Not Found$/
      )
    ])
    expect(await guideSnapshot(database.db.kysely)).toEqual(before)
    expect(await stagedRows(database.db.kysely)).toBe(0)
  })

  it("runs with the app, on start and every interval, and stops when the app closes, mid-import too", async () => {
    // a guide that takes four times as long to arrive as this test may run: the app can only
    // close while it is still coming if closing does not wait for the import
    const served = await serveGuide(GUIDE, { parts: 40, delayMs: TEST_TIMEOUT_MS.server / 10 })
    const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, STATIC_DIR: database.dataDir })
    await setSetting(database.db.kysely, "guideUrl", served.url)
    const lines: Array<string> = []
    const app = await buildApp({
      config,
      db: database.db,
      logger: { level: "warn", stream: { write: (line: string) => void lines.push(line) } },
      guideRefresh: { firstAfterMs: 0, everyMs: 50 }
    })
    try {
      // the first run is under way: the guide is still arriving
      await expect.poll(() => served.requests()).toBe(1)
      await expect.poll(async () => (await leaseOf(database.db.kysely, GUIDE_REFRESH_LEASE))?.holder).toBe(refreshHolder(config))
      expect(served.requests()).toBe(1)
    } finally {
      await app.close()
      await served.close()
    }
    expect(await guideSnapshot(database.db.kysely)).toEqual({ channels: [], programmes: [] })
    expect(await stagedRows(database.db.kysely)).toBe(0)
    const lease = await leaseOf(database.db.kysely, GUIDE_REFRESH_LEASE)
    expect(Date.parse(lease?.leasedUntil ?? "")).toBeLessThanOrEqual(Date.now())
    // stopping is not a failure worth a warning
    expect(lines).toEqual([])

    // this app runs on the real clock and keeps only recent programmes: a guide of the coming day
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000
    const coming = xmltv(
      [{ id: "a.tv", name: "Alpha" }],
      hourly("a.tv", new Date(hour).toISOString(), new Date(hour + 24 * 3_600_000).toISOString(), "Slot")
    )
    const quick = await serveGuide(coming)
    await setSetting(database.db.kysely, "guideUrl", quick.url)
    const again = await buildApp({ config, db: database.db, guideRefresh: { firstAfterMs: 0, everyMs: 100 } })
    try {
      await expect.poll(() => quick.requests()).toBeGreaterThanOrEqual(2)
    } finally {
      await again.close()
    }
    const after = quick.requests()
    await sleep(250)
    expect(quick.requests()).toBe(after)
    await quick.close()
    expect((await guideSnapshot(database.db.kysely)).programmes).toHaveLength(24)
  })
})

describe("the refresh job's lease holder", () => {
  it("is the same for a restart of one instance and differs between instances", () => {
    const instance = { host: "0.0.0.0", port: 8080 }
    expect(refreshHolder(instance, "tv1")).toBe(refreshHolder({ ...instance }, "tv1"))
    expect(refreshHolder(instance, "tv1")).not.toBe(refreshHolder({ ...instance, port: 8081 }, "tv1"))
    expect(refreshHolder(instance, "tv1")).not.toBe(refreshHolder(instance, "tv2"))
  })
})
