import pg from "pg"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type Db, openDatabase } from "../../../src/server/db/database.ts"
import { deleteStream, insertStream, setStreamMaintenance } from "../../../src/server/streams/streamsRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"

/** A second opening of the same database: as far as the first can tell, another process. */
const openAgain = (test: TestDatabase): Promise<Db> => openDatabase({ dataDir: test.dataDir, databaseUrl: test.databaseUrl })

const schemaOf = (test: TestDatabase): string | null => new URL(test.databaseUrl ?? "postgres://x/").searchParams.get("schema")

async function listenersOf(test: TestDatabase): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: string }>("select count(*) as n from pg_stat_activity where application_name = $1", [
      `streamhub changes ${schemaOf(test)}`
    ])
    return Number(rows[0]?.n)
  } finally {
    await client.end()
  }
}

/** Asks until the version is known: on PostgreSQL the first ask opens the listening connection. */
const knownVersion = async (db: Db): Promise<number> => {
  await expect.poll(() => db.tableVersion("streams"), { interval: 10 }).toBeTypeOf("number")
  return db.tableVersion("streams") ?? Number.NaN
}

/** On SQLite a change shows with its commit; on PostgreSQL once its notification has arrived. */
const movesFrom = (db: Db, before: number) => expect.poll(() => db.tableVersion("streams"), { interval: 5 }).not.toBe(before)

describe.each(dialects)("a table's version on $name", (dialect) => {
  let test: TestDatabase
  let other: Db
  beforeEach(async () => {
    test = await dialect.create()
    other = await openAgain(test)
  })
  afterEach(async () => {
    await other.close()
    await test.dispose()
  })

  it("moves with every kind of change another process commits, and stays while nothing changes", async () => {
    const db = test.db
    let version = await knownVersion(db)
    expect(db.tableVersion("streams")).toBe(version)

    const stream = await insertStream(other.kysely, { title: "Arena" })
    await movesFrom(db, version)
    version = db.tableVersion("streams") ?? Number.NaN
    await setStreamMaintenance(other.kysely, stream.id, true)
    await movesFrom(db, version)
    version = db.tableVersion("streams") ?? Number.NaN
    await deleteStream(other.kysely, stream.id)
    await movesFrom(db, version)
    version = db.tableVersion("streams") ?? Number.NaN

    // other tables are not watched: a change to one, then one to streams, moves it by one
    await other.kysely.insertInto("settings").values({ key: "guideUrl", value: '""' }).execute()
    expect(db.tableVersion("streams")).toBe(version)
    await insertStream(other.kysely, { title: "After the settings" })
    await movesFrom(db, version)
    expect(db.tableVersion("streams")).toBe(version + 1)
  })

  it("moves at once with a change this process makes", async () => {
    const db = test.db
    const version = await knownVersion(db)
    await insertStream(db.kysely, { title: "Arena" })
    expect(db.tableVersion("streams")).not.toBe(version)
  })

  it.skipIf(dialect.name !== "sqlite")("is unknown inside a transaction, which may yet roll back", async () => {
    const db = test.db
    const version = await knownVersion(db)
    await db.kysely.transaction().execute(async (trx) => {
      await insertStream(trx, { title: "Arena" })
      expect(db.tableVersion("streams")).toBeUndefined()
    })
    expect(db.tableVersion("streams")).toBe(version + 1)
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await insertStream(trx, { title: "Rolled back" })
        throw new Error("roll back")
      })
    ).rejects.toThrow("roll back")
    expect(db.tableVersion("streams")).toBe(version + 1)
  })

  it.skipIf(dialect.name !== "sqlite")(
    "keeps a version it read for a moment, but never past this connection's own write or 50 ms after another's",
    async () => {
      const db = test.db
      const version = await knownVersion(db)
      await insertStream(other.kysely, { title: "Elsewhere" })
      // read again within the moment, it may still be the old one; past it, never
      await new Promise((resolve) => setTimeout(resolve, 60))
      expect(db.tableVersion("streams")).toBe(version + 1)
      await insertStream(other.kysely, { title: "Elsewhere again" })
      // this connection's own write, even to another table, makes it read the version again
      await db.kysely.insertInto("settings").values({ key: "guideUrl", value: '""' }).execute()
      expect(db.tableVersion("streams")).toBe(version + 2)
    }
  )

  it.skipIf(dialect.name !== "postgres")(
    "listens on one connection, opened only when first asked and closed with the database",
    async () => {
      // a process that never asks (the CLI) holds no listening connection
      expect(await listenersOf(test)).toBe(0)
      expect(test.db.tableVersion("streams")).toBeUndefined()
      await knownVersion(test.db)
      expect(await listenersOf(test)).toBe(1)
      await test.db.close()
      await expect.poll(() => listenersOf(test)).toBe(0)
    }
  )

  it.skipIf(dialect.name !== "postgres")("does not move for the same table in another schema of the database", async () => {
    const elsewhere = await dialect.create()
    try {
      const version = await knownVersion(test.db)
      await insertStream(elsewhere.db.kysely, { title: "Elsewhere" })
      // a change here, after the one elsewhere: once it has arrived, the other would have too
      await insertStream(other.kysely, { title: "Here" })
      await movesFrom(test.db, version)
      expect(test.db.tableVersion("streams")).toBe(version + 1)
    } finally {
      await elsewhere.dispose()
    }
  })
})
