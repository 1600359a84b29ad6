import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type Db, openDatabase } from "../../../src/server/db/database.ts"
import { migrateToLatest } from "../../../src/server/db/migrations.ts"

// The operator CLI and the server are two processes on one SQLite file. A transaction that reads
// and then writes must not fail because the other committed in between: it takes the write lock
// when it begins, and so anyone else's write waits for it instead.
describe("SQLite transactions", () => {
  let dataDir: string
  let db: Db
  let other: DatabaseSync

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "streamhub-tx-"))
    db = await openDatabase({ dataDir })
    await migrateToLatest(db)
    // another process's connection, as impatient as can be: a held lock fails it at once
    other = new DatabaseSync(join(dataDir, "app.db"))
    other.exec("PRAGMA busy_timeout=0")
  })
  afterEach(async () => {
    other.close()
    await db.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  const writeElsewhere = (token: string) =>
    other.exec(`insert into announcements (token, title, text, created_at) values ('${token}', 'x', 'y', '2026-11-27T00:00:00.000Z')`)
  const tokens = async () =>
    (await db.kysely.selectFrom("announcements").select("token").orderBy("token").execute()).map((row) => row.token)

  it("take the write lock as they begin, so another connection cannot commit inside one", async () => {
    let elsewhere: unknown
    await db.kysely.transaction().execute(async (trx) => {
      await trx.selectFrom("users").select("id").execute()
      try {
        writeElsewhere("theirs-during")
      } catch (error) {
        elsewhere = error
      }
      await trx
        .insertInto("announcements")
        .values({ token: "ours", title: "x", text: "y", created_at: "2026-11-27T00:00:00.000Z" })
        .execute()
    })
    expect(String(elsewhere)).toMatch(/database is locked/)
    writeElsewhere("theirs-after")
    expect(await tokens()).toEqual(["ours", "theirs-after"])
  })
})
