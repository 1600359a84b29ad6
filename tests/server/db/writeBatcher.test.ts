import { afterEach, beforeEach, describe, expect, it } from "vitest"
import type { Kysely } from "kysely"
import type { Tables } from "../../../src/server/db/schema.ts"
import { createWriteBatcher } from "../../../src/server/db/writeBatcher.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

describe.each(dialects)("write batcher on $name", (dialect) => {
  let test: TestDatabase
  beforeEach(async () => {
    test = await dialect.create()
  })
  afterEach(() => test.dispose())

  // settings' key is unique: a second insert of one key is a write that fails on its own
  const insert = (key: string) => (trx: Kysely<Tables>) =>
    trx.insertInto("settings").values({ key: `batch.${key}`, value: "1" }).execute().then(() => undefined)
  const keys = async () => (await test.db.kysely.selectFrom("settings").select("key").where("key", "like", "batch.%").execute())
    .map((row) => row.key.slice("batch.".length)).sort()

  it("commits writes that arrive together in one transaction, and acknowledges each after the commit", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, windowMs: 20 })
    const transactions = new Set<Kysely<Tables>>()
    const writes = Array.from({ length: 40 }, (_, n) => batcher.write(async (trx) => {
      transactions.add(trx)
      await insert(`s${n}`)(trx)
    }))
    await Promise.all(writes)
    expect(transactions.size).toBe(1)
    expect(await keys()).toHaveLength(40)
    await batcher.close()
  })

  it("splits at the batch size and keeps order", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, maxBatch: 7 })
    const transactions: Array<Kysely<Tables>> = []
    await Promise.all(Array.from({ length: 20 }, (_, n) => batcher.write(async (trx) => {
      if (!transactions.includes(trx)) transactions.push(trx)
      await insert(`s${String(n).padStart(2, "0")}`)(trx)
    })))
    expect(transactions).toHaveLength(3)
    expect(await keys()).toEqual(Array.from({ length: 20 }, (_, n) => `s${String(n).padStart(2, "0")}`))
    await batcher.close()
  })

  it("rejects only the write at fault; its neighbours are committed", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, windowMs: 20 })
    await batcher.write(insert("first"))
    const results = await Promise.allSettled([
      batcher.write(insert("before")),
      batcher.write(insert("first")),
      batcher.write(insert("after"))
    ])
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"])
    expect(await keys()).toEqual(["after", "before", "first"])
    await batcher.close()
  })

  it("commits what is queued when closed, then refuses more", async () => {
    const batcher = createWriteBatcher({ db: test.db.kysely, windowMs: 60_000 })
    const queued = batcher.write(insert("queued"))
    await batcher.close()
    await queued
    expect(await keys()).toEqual(["queued"])
    await expect(batcher.write(insert("late"))).rejects.toThrow("closed")
  })
})
