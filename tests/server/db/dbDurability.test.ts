import { existsSync } from "node:fs"
import path from "node:path"
import { sql } from "kysely"
import { afterEach, describe, expect, it } from "vitest"
import { openDatabase } from "../../../src/server/db/database.ts"
import { migrateToLatest } from "../../../src/server/db/migrations.ts"
import { findStream, insertStream, listStreams } from "../../../src/server/streams/streamsRepo.ts"
import { dialects, sqliteHarness, type TestDatabase } from "../../support/dbHarness.ts"

const opened: TestDatabase[] = []
afterEach(async () => {
  for (const test of opened.splice(0)) await test.dispose()
})

async function create(harness = sqliteHarness): Promise<TestDatabase> {
  const test = await harness.create()
  opened.push(test)
  return test
}

describe("SQLite file", () => {
  it("is tuned for durability: WAL, synchronous FULL, foreign keys, busy timeout", async () => {
    const { db, dataDir } = await create()
    expect(existsSync(path.join(dataDir, "app.db"))).toBe(true)
    const pragma = async (name: string) => (await sql.raw(`pragma ${name}`).execute(db.kysely)).rows[0]
    expect(await pragma("journal_mode")).toEqual({ journal_mode: "wal" })
    expect(await pragma("synchronous")).toEqual({ synchronous: 2 })
    expect(await pragma("foreign_keys")).toEqual({ foreign_keys: 1 })
    expect(await pragma("busy_timeout")).toEqual({ timeout: 5000 })
  })

  it("keeps committed rows across close and reopen", async () => {
    const { db, dataDir } = await create()
    const stream = await insertStream(db.kysely, { title: "Kept", maintenance_mode: true })
    await db.close()
    await db.close()

    const reopened = await openDatabase({ dataDir })
    try {
      expect(await migrateToLatest(reopened)).toEqual([])
      expect(await findStream(reopened.kysely, stream.id)).toEqual(stream)
    } finally {
      await reopened.close()
    }
  })

  it("creates a missing data directory", async () => {
    const { dataDir } = await create()
    const nested = path.join(dataDir, "a", "b")
    const db = await openDatabase({ dataDir: nested })
    await db.close()
    expect(existsSync(path.join(nested, "app.db"))).toBe(true)
  })
})

const postgres = dialects.find((d) => d.name === "postgres")

describe.skipIf(postgres === undefined)("PostgreSQL schemas", () => {
  it("keep parallel databases apart, each with its own migration history", async () => {
    const [one, two] = await Promise.all([create(postgres), create(postgres)])
    await insertStream(one!.db.kysely, { title: "Only in one" })
    expect(await listStreams(two!.db.kysely)).toEqual([])
    expect((await listStreams(one!.db.kysely)).map((s) => s.title)).toEqual(["Only in one"])
  })

  it("reach the same schema again through the same URL", async () => {
    const { db, databaseUrl, dataDir } = await create(postgres)
    await insertStream(db.kysely, { title: "Shared" })
    const again = await openDatabase({ dataDir, databaseUrl })
    try {
      expect(await migrateToLatest(again)).toEqual([])
      expect((await listStreams(again.kysely)).map((s) => s.title)).toEqual(["Shared"])
    } finally {
      await again.close()
    }
  })

  it("refuses a schema name it would have to quote", async () => {
    await expect(openDatabase({ dataDir: "unused", databaseUrl: "postgres://x@127.0.0.1/test?schema=Bad-Name" })).rejects.toThrow(
      'invalid schema name "Bad-Name"'
    )
  })
})

describe.each(dialects)("closing on $name", (dialect) => {
  it("works even when no query ran, and twice", async () => {
    const { dataDir, databaseUrl } = await create(dialect)
    const db = await openDatabase({ dataDir, databaseUrl })
    await db.close()
    await db.close()
  })
})
