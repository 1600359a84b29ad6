import type { Kysely } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import type { Tables } from "../../../src/server/db/schema.ts"
import { createWriteBatcher } from "../../../src/server/db/writeBatcher.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

describe.each(dialects)("write batcher on $name", (dialect) => {
  let test: TestDatabase
  let batches: Array<ReadonlyArray<string>>
  beforeEach(async () => {
    test = await dialect.create()
    batches = []
  })
  afterEach(() => test.dispose())

  // settings' key is unique: a key written twice is a write that fails on its own
  const commit = async (trx: Kysely<Tables>, keys: ReadonlyArray<string>) => {
    batches.push(keys)
    await trx
      .insertInto("settings")
      .values(keys.map((key) => ({ key: `batch.${key}`, value: "1" })))
      .execute()
  }
  const stored = async () =>
    (await test.db.kysely.selectFrom("settings").select("key").where("key", "like", "batch.%").execute())
      .map((row) => row.key.slice("batch.".length))
      .sort()
  const named = (count: number) => Array.from({ length: count }, (_, n) => `k${String(n).padStart(2, "0")}`)

  it("commits writes that arrive together as one batch, and acknowledges each once it is committed", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, commit, windowMs: 20 })
    const acknowledged: Array<Array<string>> = []
    await Promise.all(named(40).map((key) => batcher.write(key).then(async () => acknowledged.push(await stored()))))
    expect(batches).toEqual([named(40)])
    // whoever is told "done" finds every write of its batch stored
    expect(acknowledged.every((keys) => keys.length === 40)).toBe(true)
    await batcher.close()
  })

  it("splits at the batch size and keeps order", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, commit, maxBatch: 7 })
    await Promise.all(named(20).map((key) => batcher.write(key)))
    expect(batches.map((batch) => batch.length)).toEqual([7, 7, 6])
    expect(batches.flat()).toEqual(named(20))
    expect(await stored()).toEqual(named(20))
    await batcher.close()
  })

  it("rejects only the write at fault; its neighbours are committed", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, commit, windowMs: 20 })
    await batcher.write("first")
    const results = await Promise.allSettled([batcher.write("before"), batcher.write("first"), batcher.write("after")])
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"])
    expect(await stored()).toEqual(["after", "before", "first"])
    await batcher.close()
  })

  it("commits what is queued when closed, then refuses more", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, commit, windowMs: 60_000 })
    const queued = batcher.write("queued")
    await batcher.close()
    await queued
    expect(await stored()).toEqual(["queued"])
    await expect(batcher.write("late")).rejects.toThrow("closed")
  })
})
