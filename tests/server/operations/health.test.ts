import { sql } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { releaseLease, THIS_PROCESS } from "../../../src/server/db/jobLease.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
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
        { name: "migrations", ok: true, detail: expect.stringMatching(/^up to date \(\d{4}_\w+\)$/) },
        { name: "leases", ok: true, detail: "every job and feed of this instance keeps its lease" }
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
        { name: "migrations", ok: false, detail: "the database is newer than this version (0099_from_the_future)" },
        { name: "leases", ok: true }
      ]
    })
    expect((await get("/healthz")).statusCode).toBe(200)
  })

  it("is not ready while a lease of this instance has gone a minute without renewal, and ready once it is renewed or given up", async () => {
    const db = server.db.kysely
    const at = (ms: number) => new Date(server.clock + ms).toISOString()
    await db
      .insertInto("job_leases")
      .values([
        { name: "relay:stuck", holder: `127.0.0.1:8080 ${THIS_PROCESS}`, leased_until: at(-61_000) },
        { name: "relay:late", holder: `127.0.0.1:8080 ${THIS_PROCESS}`, leased_until: at(-30_000) },
        { name: "relay:elsewhere", holder: "10.0.0.2:8080 another-instance", leased_until: at(-3_600_000) }
      ])
      .execute()
    const ready = await get("/readyz")
    expect(ready.statusCode).toBe(503)
    expect(ready.json().checks[2]).toEqual({ name: "leases", ok: false, detail: "not renewed for over a minute: relay:stuck" })
    await releaseLease(db, { name: "relay:stuck", holder: `127.0.0.1:8080 ${THIS_PROCESS}`, now: server.clock })
    await expect.poll(async () => (await get("/readyz")).statusCode).toBe(200)
  })

  it("has no /metrics without METRICS_TOKEN", async () => {
    expect((await get("/metrics")).statusCode).toBe(404)
  })
})

describe.each(dialects)("metrics ($name)", (dialect) => {
  const TOKEN = "metrics-token-for-the-tests-0123456789"
  let server: TestServer
  beforeEach(async () => {
    server = await startTestServer(dialect, { env: { METRICS_TOKEN: TOKEN } })
  })
  afterEach(() => server.dispose())

  it("answers Prometheus text with the bearer token only: process, requests by route and status, outbox, viewers, feeds", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Basic ${TOKEN}`]) {
      const refused = await server.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization === undefined ? {} : { authorization }
      })
      expect(refused.statusCode).toBe(401)
      expect(refused.body).not.toContain("streamhub_")
    }
    await server.call("streams", { token: await server.signIn((await server.addUser()).email) })
    await server.app.inject({ method: "GET", url: "/no/such/page/at/all.txt" })
    const scraped = await server.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })
    expect(scraped.statusCode).toBe(200)
    expect(scraped.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = scraped.body
    expect(text).toMatch(/^streamhub_process_cpu_seconds_total \d/m)
    expect(text).toMatch(/^streamhub_process_resident_memory_bytes \d/m)
    expect(text).toMatch(/^streamhub_http_requests_total\{route="\/api\/streams\/all",method="GET",status="200"\} 1$/m)
    expect(text).toMatch(/^streamhub_http_request_duration_seconds_count\{route="\/api\/streams\/all"\} 1$/m)
    // a made-up path is one series, whatever it was
    expect(text).not.toContain("/no/such/page")
    expect(text).toMatch(/^streamhub_mail_outbox\{status="pending"\} \d+$/m)
    expect(text).toContain("# TYPE streamhub_live_viewers gauge")
    expect(text).toContain("# TYPE streamhub_feed_up gauge")
    // the statements behind those requests, by kind
    expect(text).toMatch(/^streamhub_database_statement_duration_seconds_count\{statement="select"\} [1-9]\d*$/m)
  })

  it("shows each stream's quality over the last hour: first picture, rebuffering and errors", async () => {
    const at = new Date(server.clock - 10 * 60 * 1000).toISOString()
    const stream = await insertStream(server.db.kysely, { title: "Sports One", src: "/live/demo1/index.m3u8" })
    const id = String(stream.id)
    await server.db.kysely
      .insertInto("stream_qoe_samples")
      .values([
        { stream_id: id, kind: "ttff", value: 1200, at },
        { stream_id: id, kind: "ttff", value: 1800, at },
        { stream_id: id, kind: "stall", value: 3000, at },
        { stream_id: id, kind: "error", value: 1, at }
      ])
      .execute()
    const text = (await server.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })).body
    expect(text).toContain(`streamhub_stream_first_frame_seconds{stream="${id}"} 1.5`)
    // nobody pinged that hour: all the watching time is the stall
    expect(text).toContain(`streamhub_stream_rebuffering_ratio{stream="${id}"} 1`)
    expect(text).toContain(`streamhub_stream_errors{stream="${id}"} 1`)
  })
})
