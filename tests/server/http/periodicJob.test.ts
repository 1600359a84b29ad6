import { describe, expect, it } from "vitest"
import { startPeriodicJob } from "../../../src/server/http/periodicJob.ts"
import { dialects } from "../../support/dbHarness.ts"

const HOUR = 60 * 60 * 1000

// Background jobs (housekeeping) run once per pass across instances sharing a database: the one
// holding the job's lease runs it, the others skip, and another takes over when the holder stops.
describe.each(dialects)("a periodic job with a lease ($name)", (dialect) => {
  it("runs on one instance at a time, and moves on when its holder is gone", async () => {
    const test = await dialect.create()
    let clock = Date.UTC(2026, 0, 15, 12)
    const runs: Array<string> = []
    const instance = (holder: string) =>
      startPeriodicJob(
        async () => {
          runs.push(holder)
          return holder
        },
        { everyMs: HOUR, firstAfterMs: 24 * HOUR, lease: { db: test.db.kysely, name: "sweep", now: () => clock, holder } }
      )
    const a = instance("a")
    const b = instance("b")
    try {
      expect(await a.runNow()).toBe("a")
      expect(await b.runNow()).toBeUndefined()
      clock += HOUR
      expect(await b.runNow()).toBeUndefined()
      expect(await a.runNow()).toBe("a")
      // a stops passing by; once a period and a half has gone, b takes over
      clock += 2 * HOUR
      expect(await b.runNow()).toBe("b")
      expect(await a.runNow()).toBeUndefined()
      expect(runs).toEqual(["a", "a", "b"])
    } finally {
      await Promise.all([a.stop(), b.stop()])
      await test.dispose()
    }
  })
})
