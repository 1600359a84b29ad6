import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { openDatabase } from "../../../src/server/db/database.ts"
import { migrateToLatest, migrations } from "../../../src/server/db/migrations.ts"
import { withStartupLock } from "../../../src/server/db/startupLock.ts"
import { SEEDED_MARKER } from "../../../src/server/seed.ts"
import { dialects } from "../../support/dbHarness.ts"
import { freePort, startServer } from "../../support/e2eHarness.ts"
import { SERVER_START_MS } from "../../support/timeouts.ts"

const ROUNDS = 4
const BANNER = "staff account created"

const postgres = dialects.find((dialect) => dialect.name === "postgres")

/** Two distinct free ports: each server needs its own, and both must be known before either spawns. */
async function twoPorts(): Promise<[number, number]> {
  for (;;) {
    const [a, b] = [await freePort(), await freePort()]
    if (a !== b) return [a, b]
  }
}

// Several instances share one PostgreSQL (DESIGN.md, "Running more than one instance"); started
// together on an empty database, they must migrate and seed it once between them.
describe.skipIf(postgres === undefined)("two instances starting together on an empty PostgreSQL", () => {
  // each round waits for two servers to start, side by side
  it(`both come up and the first-start content exists once (${ROUNDS} rounds)`, { timeout: ROUNDS * SERVER_START_MS }, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const database = await postgres!.create({ migrate: false })
      const dataDirs = [await mkdtemp(join(tmpdir(), "streamhub-twin-")), await mkdtemp(join(tmpdir(), "streamhub-twin-"))]
      const ports = await twoPorts()
      try {
        // No await between the two spawns: they start in the same instant.
        const starts = await Promise.allSettled(
          dataDirs.map((dataDir, i) =>
            startServer({
              DATA_DIR: dataDir,
              PORT: String(ports[i]),
              DATABASE_URL: database.databaseUrl!
            })
          )
        )
        const servers = starts.flatMap((start) => (start.status === "fulfilled" ? [start.value] : []))
        const outputs: Array<string> = []
        try {
          const failures = starts.flatMap((start) => (start.status === "rejected" ? [String(start.reason)] : []))
          expect(failures, `round ${round}`).toEqual([])
          for (const server of servers) {
            const answer = await fetch(`${server.url}/api/maintenance`)
            expect(answer.status, `round ${round}`).toBe(200)
          }
        } finally {
          await Promise.all(
            servers.map(async (server) => {
              await server.stop()
              outputs.push(server.output())
            })
          )
        }
        expect(
          outputs.filter((output) => output.includes(BANNER)),
          `round ${round}: instances that printed the staff banner`
        ).toHaveLength(1)

        const db = database.db.kysely
        const users = await db.selectFrom("users").select(["email", "is_staff"]).execute()
        expect(users, `round ${round}`).toEqual([{ email: "admin@streamhub.local", is_staff: true }])
        const markers = await db.selectFrom("settings").select("key").where("key", "=", SEEDED_MARKER).execute()
        expect(markers, `round ${round}`).toHaveLength(1)
        const streams = await db.selectFrom("streams").select("title").orderBy("id").execute()
        expect(
          streams.map((stream) => stream.title),
          `round ${round}`
        ).toEqual(["Demo Channel 1", "Demo Channel 2"])
        const applied = await db
          .selectFrom("kysely_migration" as never)
          .select("name" as never)
          .execute()
        expect(applied, `round ${round}`).toHaveLength(Object.keys(migrations("postgres")).length)
      } finally {
        await database.dispose()
        await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })))
      }
    }
  })
})

describe.skipIf(postgres === undefined)("start-up on PostgreSQL, in one process", () => {
  it("migrations run once when several connection pools migrate one empty schema at once", async () => {
    const database = await postgres!.create({ migrate: false })
    const pools = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl })))
    try {
      const ran = await Promise.all(pools.map((db) => migrateToLatest(db)))
      const all = ran.flat()
      expect(new Set(all).size).toBe(all.length)
      expect(all.length).toBeGreaterThan(0)
      expect(await migrateToLatest(database.db)).toEqual([])
    } finally {
      await Promise.all(pools.map((db) => db.close()))
      await database.dispose()
    }
  })

  it("the start-up lock makes a second start wait for the first, is free again after a failure, and leaves other schemas alone", async () => {
    const database = await postgres!.create({ migrate: false })
    const other = await postgres!.create({ migrate: false })
    const twin = await openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl })
    try {
      const events: Array<string> = []
      const firstHolds = Promise.withResolvers<void>()
      const firstEntered = Promise.withResolvers<void>()
      const first = withStartupLock(database.db, async () => {
        events.push("first in")
        firstEntered.resolve()
        await firstHolds.promise
        events.push("first out")
        throw new Error("start-up failed")
      })
      await firstEntered.promise
      const secondWaits = Promise.withResolvers<void>()
      const second = withStartupLock(
        twin,
        async () => {
          events.push("second in")
        },
        { onWait: () => secondWaits.resolve() }
      )
      // another schema's start goes ahead while this one's is held
      await withStartupLock(other.db, async () => {
        events.push("other schema")
      })
      await secondWaits.promise
      firstHolds.resolve()
      await expect(first).rejects.toThrow("start-up failed")
      await second
      expect(events).toEqual(["first in", "other schema", "first out", "second in"])
    } finally {
      await twin.close()
      await other.dispose()
      await database.dispose()
    }
  })
})
