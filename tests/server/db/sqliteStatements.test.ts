import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sql } from "kysely"
import { expect, it } from "vitest"
import { openDatabase } from "../../../src/server/db/database.ts"

it("reads the columns a table has now after its schema changed, not those it had when a query was first prepared", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "streamhub-statements-"))
  const db = await openDatabase({ dataDir })
  try {
    await sql`create table t (a text, b text, c boolean)`.execute(db.kysely)
    await sql`insert into t values ('a', 'b', 1)`.execute(db.kysely)
    const all = () => sql<Record<string, unknown>>`select * from t`.execute(db.kysely)
    expect((await all()).rows).toEqual([{ a: "a", b: "b", c: true }])
    await sql`alter table t drop column b`.execute(db.kysely)
    expect((await all()).rows).toEqual([{ a: "a", c: true }])
  } finally {
    await db.close()
    await rm(dataDir, { recursive: true, force: true })
  }
})
