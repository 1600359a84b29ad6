import type { Kysely } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { pruneBefore } from "../../../src/server/db/pruneBefore.ts"
import type { Tables } from "../../../src/server/db/schema.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 12, minute)).toISOString()

describe.each(dialects)("pruneBefore on $name", (dialect) => {
  let test: TestDatabase
  let db: Kysely<Tables>

  beforeEach(async () => {
    test = await dialect.create()
    db = test.db.kysely
    // five refused addresses, quiet since minute 0 to minute 4
    await db
      .insertInto("unknown_viewers")
      .values([0, 1, 2, 3, 4].map((minute) => ({ ip: `10.0.0.${minute}`, channel: "tv", first_seen: at(minute), last_seen: at(minute) })))
      .execute()
  })
  afterEach(async () => {
    await test.dispose()
  })

  const left = async () => (await db.selectFrom("unknown_viewers").select("ip").orderBy("ip").execute()).map((row) => row.ip)

  it("deletes only rows quiet since before the cutoff, and says how many went", async () => {
    expect(await pruneBefore(db, "unknown_viewers", "ip", "last_seen", at(3), 100)).toBe(3)
    expect(await left()).toEqual(["10.0.0.3", "10.0.0.4"])
  })

  it("takes at most a batch at a time, so a backlog goes over several runs", async () => {
    expect(await pruneBefore(db, "unknown_viewers", "ip", "last_seen", at(5), 2)).toBe(2)
    expect(await left()).toHaveLength(3)
    expect(await pruneBefore(db, "unknown_viewers", "ip", "last_seen", at(5), 2)).toBe(2)
    expect(await pruneBefore(db, "unknown_viewers", "ip", "last_seen", at(5), 2)).toBe(1)
    expect(await pruneBefore(db, "unknown_viewers", "ip", "last_seen", at(5), 2)).toBe(0)
    expect(await left()).toEqual([])
  })
})
