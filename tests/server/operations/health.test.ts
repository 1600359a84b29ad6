import { sql } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

describe.each(dialects)("health and readiness ($name)", (dialect) => {
  let server: TestServer
  beforeEach(async () => {
    server = await startTestServer(dialect)
  })
  afterEach(() => server.dispose())
  const get = (url: string) => server.app.inject({ method: "GET", url })

  it("says it is alive and ready without a session, and nothing else", async () => {
    const alive = await get("/healthz")
    expect(alive.statusCode).toBe(200)
    expect(alive.json()).toEqual({ status: "alive" })
    expect(alive.headers["cache-control"]).toBe("no-store")
    const ready = await get("/readyz")
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({
      status: "ready",
      checks: [
        { name: "database", ok: true, detail: "answers" },
        { name: "migrations", ok: true, detail: expect.stringMatching(/^up to date \(\d{4}_\w+\)$/) }
      ]
    })
    // the security headers every answer has
    expect(ready.headers["x-content-type-options"]).toBe("nosniff")
  })

  it("is not ready on a database a newer version migrated, saying why", async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('0099_from_the_future', '2027-01-01T00:00:00.000Z')`.execute(
      server.db.kysely
    )
    const ready = await get("/readyz")
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toMatchObject({
      status: "not ready",
      checks: [
        { name: "database", ok: true },
        { name: "migrations", ok: false, detail: "the database is newer than this version (0099_from_the_future)" }
      ]
    })
    expect((await get("/healthz")).statusCode).toBe(200)
  })
})
