import { describe, expect, it } from "vitest"
import { memoryCounters, postgresCounters } from "../../../src/server/http/counters.ts"
import { dialects } from "../../support/dbHarness.ts"

const MINUTE = 60_000
const postgres = dialects.find((dialect) => dialect.name === "postgres")

describe("counters in memory", () => {
  it("count in fixed windows that open with the first event and close after their length", async () => {
    let clock = 1_000_000
    const counters = memoryCounters(() => clock)
    expect(await counters.add("k", MINUTE)).toEqual({ count: 1, msLeft: MINUTE })
    clock += 10_000
    expect(await counters.add("k", MINUTE, 2)).toEqual({ count: 3, msLeft: MINUTE - 10_000 })
    expect(counters.addSoon("k", MINUTE)).toEqual({ count: 4, msLeft: MINUTE - 10_000 })
    expect(await counters.read("other")).toEqual({ count: 0, msLeft: 0 })
    clock += MINUTE
    expect(await counters.read("k")).toEqual({ count: 0, msLeft: 0 })
    expect(await counters.add("k", MINUTE)).toEqual({ count: 1, msLeft: MINUTE })
    await counters.reset("k")
    expect(await counters.read("k")).toEqual({ count: 0, msLeft: 0 })
  })
})

// Two instances on one PostgreSQL each have their own counters over the same table.
describe.skipIf(postgres === undefined)("counters shared through PostgreSQL", () => {
  it("add at once in the database, so every instance sees every count", async () => {
    const test = await postgres!.create()
    let clock = 1_000_000
    const a = postgresCounters(test.db.kysely, () => clock)
    const b = postgresCounters(test.db.kysely, () => clock)
    try {
      expect((await a.add("login 10.0.0.1", MINUTE)).count).toBe(1)
      expect((await b.add("login 10.0.0.1", MINUTE)).count).toBe(2)
      expect(await a.read("login 10.0.0.1")).toEqual({ count: 2, msLeft: MINUTE })
      clock += MINUTE
      expect((await b.add("login 10.0.0.1", MINUTE)).count).toBe(1)
      await a.reset("login 10.0.0.1")
      expect((await b.read("login 10.0.0.1")).count).toBe(0)
    } finally {
      await Promise.all([a.close(), b.close()])
      await test.dispose()
    }
  })

  it("meet within a flush when counted soon, also for more keys than one statement takes", async () => {
    const test = await postgres!.create()
    const clock = 1_000_000
    const a = postgresCounters(test.db.kysely, () => clock, { flushMs: 20 })
    const b = postgresCounters(test.db.kysely, () => clock, { flushMs: 20 })
    try {
      for (let i = 0; i < 3; i += 1) a.addSoon("api 10.0.0.2", MINUTE)
      expect(b.addSoon("api 10.0.0.2", MINUTE).count).toBe(1)
      const keys = Array.from({ length: 25_000 }, (_, i) => `api flood ${i}`)
      for (const key of keys) a.addSoon(key, MINUTE)
      await expect.poll(async () => (await b.read("api 10.0.0.2")).count).toBe(4)
      // once an instance's count has gone out, what came back (both instances' counts) is its own
      a.addSoon("api 10.0.0.2", MINUTE)
      await expect.poll(async () => (await b.read("api 10.0.0.2")).count).toBe(5)
      // the total comes back to `a` with the answer to its flush (counting nothing asks what it knows)
      await expect.poll(() => a.addSoon("api 10.0.0.2", MINUTE, 0).count).toBe(5)
      expect(a.addSoon("api 10.0.0.2", MINUTE).count).toBe(6)
      await expect
        .poll(async () =>
          Number(
            (
              await test.db.kysely
                .selectFrom("rate_limits")
                .select((eb) => eb.fn.countAll().as("n"))
                .executeTakeFirstOrThrow()
            ).n
          )
        )
        .toBe(25_001)
    } finally {
      await Promise.all([a.close(), b.close()])
      await test.dispose()
    }
  })

  it("send a late flush's counts into the window they were counted in, or nowhere once it has closed", async () => {
    const test = await postgres!.create()
    let clock = 1_000_000
    const a = postgresCounters(test.db.kysely, () => clock, { flushMs: 60_000 })
    const b = postgresCounters(test.db.kysely, () => clock)
    try {
      for (let i = 0; i < 5; i += 1) a.addSoon("health 7", MINUTE)
      clock += MINUTE
      // the flush comes late, after the window has closed: its five events do not open a new one
      await a.close()
      expect(a.addSoon("health 7", MINUTE).count).toBe(1)
      expect((await b.read("health 7")).count).toBe(0)
      // nor does a late flush open the database's window later than its first event
      const c = postgresCounters(test.db.kysely, () => clock, { flushMs: 60_000 })
      for (let i = 0; i < 5; i += 1) c.addSoon("health 8", MINUTE)
      clock += 45_000
      await c.close()
      expect(await b.read("health 8")).toEqual({ count: 5, msLeft: 15_000 })
    } finally {
      await Promise.all([a.close(), b.close()])
      await test.dispose()
    }
  })

  it("keep what they counted while the database is away, and send it later", async () => {
    const test = await postgres!.create()
    // every statement the counters send, whether it succeeds or not
    let statements = 0
    const watched = test.db.kysely.withPlugin({
      transformQuery: ({ node }) => {
        statements += 1
        return node
      },
      transformResult: async ({ result }) => result
    })
    const counters = postgresCounters(watched, () => 1_000_000, { flushMs: 20 })
    try {
      await test.db.kysely.schema.alterTable("rate_limits").renameTo("rate_limits_away").execute()
      counters.addSoon("api 10.0.0.3", MINUTE)
      counters.addSoon("api 10.0.0.3", MINUTE)
      // one flush carries both counts: a second means the first failed and was kept to try again
      await expect.poll(() => statements).toBeGreaterThanOrEqual(2)
      await test.db.kysely.schema.alterTable("rate_limits_away").renameTo("rate_limits").execute()
      await expect.poll(async () => (await counters.read("api 10.0.0.3")).count).toBe(2)
    } finally {
      await counters.close()
      await test.dispose()
    }
  })
})
