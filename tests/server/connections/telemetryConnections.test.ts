import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { hashToken } from "../../../src/server/account/sessions.ts"
import { playerTokenOf } from "../../../src/server/connections/playerTokens.ts"
import { pruneOldTelemetry, startTelemetryHousekeeping } from "../../../src/server/telemetry/housekeeping.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

const body = (playerId: string) => ({
  session_id: "player-session",
  sitegroup_id: "streamhub",
  media_id: "1",
  site_id: "web",
  player_id: playerId,
  video_type: "live",
  created: 0,
  position: 60,
  player_version: "3.4.5",
  source: "hls",
  category: "",
  category_id: "",
  autoplay: true,
  muted: false,
  customer_user_id: ""
})
const MINUTE = 60_000

describe.each(dialects)("live connections ($name)", (dialect) => {
  let server: TestServer
  let staff: string
  let customer: string
  const iso = (ms: number) => new Date(ms).toISOString()
  const ping = (token: string, ip: string, playerId = "tv") =>
    server.call("analytics", { token, ip, params: { videoType: "live", siteGroupId: "streamhub", event: "ping" }, body: body(playerId) })
  const fetchPlaylist = (ip: string, url = "/live/demo1/index.m3u8") => server.app.inject({ method: "GET", url, remoteAddress: ip })
  const connections = async () =>
    (await server.call("connections", { token: staff })).json() as {
      connections: Record<string, Array<{ timestamp: string; app: string; ip: string; token: string }>>
      unknownIps: Array<string>
    }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "desk@example.com", staff: true })
    await server.addUser({ email: "sharer@example.com" })
    await server.addUser({ email: "single@example.com" })
    staff = await server.signIn("desk@example.com")
    customer = await server.signIn("single@example.com")
  })
  beforeEach(async () => {
    await server.db.kysely.deleteFrom("player_connections").execute()
    server.clock += 10 * MINUTE
  })
  afterAll(() => server.dispose())

  it("is for staff only", async () => {
    expect((await server.call("connections")).statusCode).toBe(403)
    const refused = await server.call("connections", { token: customer })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ success: false, status: 403, detail: "Only staff may do this." })
    expect(await connections()).toEqual({ connections: {}, unknownIps: [], streams: expect.any(Array) })
  })

  it("lists live heartbeats by account: two accounts, two IPs, each session's own token", async () => {
    const home = await server.signIn("sharer@example.com")
    const away = await server.signIn("sharer@example.com")
    const start = server.clock
    await ping(home, "10.1.0.1")
    server.clock += 1000
    await ping(away, "10.1.0.2", "lls")
    await ping(customer, "10.1.0.3")
    server.clock += 30_000
    await ping(home, "10.1.0.1")
    const entry = (timestamp: number, app: string, ip: string, token: string) =>
      expect.objectContaining({
        timestamp: iso(timestamp),
        app,
        ip,
        token: playerTokenOf(hashToken(token)),
        network: ip,
        stream: "Stream 1"
      })
    expect(await connections()).toEqual({
      connections: {
        "sharer@example.com": [entry(start, "tv", "10.1.0.1", home), entry(start + 1000, "lls", "10.1.0.2", away)],
        "single@example.com": [entry(start + 1000, "tv", "10.1.0.3", customer)]
      },
      unknownIps: [],
      streams: expect.any(Array)
    })
  })

  it("drops a connection 90 seconds after its last heartbeat and restarts it on the next", async () => {
    await ping(customer, "10.2.0.1")
    server.clock += 90_000
    expect((await connections()).connections["single@example.com"]).toHaveLength(1)
    server.clock += 1
    expect(await connections()).toEqual({ connections: {}, unknownIps: [], streams: expect.any(Array) })
    await ping(customer, "10.2.0.1")
    expect((await connections()).connections["single@example.com"]).toEqual([
      expect.objectContaining({ timestamp: iso(server.clock), ip: "10.2.0.1" })
    ])
  })

  it("reports the addresses the origin refused a playlist for want of a grant", async () => {
    await ping(customer, "10.3.0.1")
    expect((await fetchPlaylist("10.3.0.9")).statusCode).toBe(403)
    server.clock += MINUTE
    expect((await fetchPlaylist("10.3.0.8", "/live/demo2/ll.m3u8?_HLS_msn=1")).statusCode).toBe(403)
    await fetchPlaylist("10.3.0.7", "/live/demo1/seg/0.ts")
    await server.app.inject({ method: "GET", url: "/api/streams/all", remoteAddress: "10.3.0.6" })
    await expect.poll(async () => (await connections()).unknownIps).toEqual(["10.3.0.9", "10.3.0.8"])
    server.clock += 30_000 + 1
    expect((await connections()).unknownIps).toEqual(["10.3.0.8"])
  })

  it("sends one page of the sessions table, with the counters, the shared accounts and each row's colour worked out over every page", async () => {
    const db = server.db.kysely
    await server.addUser({ email: "many@example.com" })
    await server.addUser({ email: "home@example.com" })
    const ids = Object.fromEntries((await db.selectFrom("users").select(["id", "email"]).execute()).map((user) => [user.email, user.id]))
    const start = server.clock - 60_000
    const at = (ms: number) => iso(start + ms)
    const row = (email: string, n: number, firstSeenMs: number, network: string) => ({
      user_id: ids[email] ?? 0,
      session_id: 1000 + n,
      token: `player-${n}`,
      stream_id: "1",
      app: "tv",
      ip: network,
      network,
      first_seen: at(firstSeenMs),
      last_seen: iso(server.clock)
    })
    const rows = [
      // 110 connections from 110 places: strongly red
      ...Array.from({ length: 110 }, (_, n) => row("many@example.com", n, n * 100, `10.9.${n >> 8}.${n & 255}`)),
      // two devices at home: lightly red; one lands on page 2, the other on page 3
      row("home@example.com", 200, 5_450, "10.8.0.1"),
      row("home@example.com", 201, 10_550, "10.8.0.1"),
      row("single@example.com", 300, 50, "10.7.0.1")
    ]
    await db.insertInto("player_connections").values(rows).execute()
    type Paged = {
      connections: Record<string, Array<{ timestamp: string; token: string; severity?: string }>>
      page?: { number: number; size: number; rows: number }
      accounts?: number
      multiple?: Array<{ email: string; connections: number }>
    }
    const page = async (number?: string) => {
      const response = await server.call("connections", { token: staff, ...(number === undefined ? {} : { query: { page: number } }) })
      expect(response.statusCode).toBe(200)
      return { body: response.json() as Paged, bytes: response.body.length }
    }
    const entries = (answer: Paged) => Object.values(answer.connections).flat()

    const second = await page("2")
    expect(second.body.page).toEqual({ number: 2, size: 50, rows: 113 })
    expect(second.body.accounts).toBe(3)
    expect(second.body.multiple).toEqual([{ email: "many@example.com", connections: 110 }])
    expect(entries(second.body)).toHaveLength(50)
    // rows 51 to 100, oldest first: the single viewer's row is the 2nd, home's first the 56th
    expect(second.body.connections["single@example.com"]).toBeUndefined()
    expect(second.body.connections["home@example.com"]).toEqual([expect.objectContaining({ token: "player-200", severity: "light" })])
    expect(second.body.connections["many@example.com"]?.every((entry) => entry.severity === "strong")).toBe(true)
    expect(second.body.connections["many@example.com"]?.[0]?.timestamp).toBe(at(49 * 100))

    const first = await page("1")
    expect(first.body.connections["single@example.com"]).toEqual([expect.objectContaining({ severity: "none" })])
    // a page past the end is the last one
    const past = await page("9")
    expect(past.body.page).toEqual({ number: 3, size: 50, rows: 113 })
    expect(entries(past.body)).toHaveLength(13)
    expect(past.body.connections["home@example.com"]).toEqual([expect.objectContaining({ token: "player-201", severity: "light" })])

    // without a page: every connection, in SPEC's shape
    const all = await page()
    expect(entries(all.body)).toHaveLength(113)
    expect(Object.keys(all.body).sort()).toEqual(["connections", "streams", "unknownIps"])
    expect(all.bytes).toBeGreaterThan(2 * second.bytes)

    for (const bad of ["0", "-1", "1.5", "two", "1234567", ""]) {
      const response = await server.call("connections", { token: staff, query: { page: bad } })
      expect(response.statusCode, bad).toBe(400)
    }
  })

  it("prunes telemetry older than 30 days in a background job, a batch at a time", async () => {
    const db = server.db.kysely
    const user = await db.selectFrom("users").select("id").where("email", "=", "single@example.com").executeTakeFirstOrThrow()
    const old = iso(server.clock - 31 * 24 * 60 * MINUTE)
    const recent = iso(server.clock - 29 * 24 * 60 * MINUTE)
    const insert = async (received_at: string) => {
      await db.insertInto("metering").values({ user_id: user.id, token_id: "t", factor: 1, received_at }).execute()
      await db
        .insertInto("health_events")
        .values({
          user_id: null,
          session_id: "s",
          device_id: "d",
          version: "v",
          event: "e",
          current_time: 0,
          client_time: 0,
          adjusted_time: 0,
          source: "hls",
          page_url: "/",
          received_at,
          ip: "10.4.0.1"
        })
        .execute()
    }
    for (const received_at of [old, old, old, recent]) await insert(received_at)
    const left = async () => [
      (await db.selectFrom("metering").select("received_at").execute()).map((r) => r.received_at),
      (await db.selectFrom("health_events").select("received_at").where("ip", "=", "10.4.0.1").execute()).map((r) => r.received_at)
    ]
    // a batch of 2 needs two rounds for the three old rows of each table, and every one goes
    expect(await pruneOldTelemetry(db, server.clock, { batch: 2 })).toBeGreaterThanOrEqual(6)
    expect(await left()).toEqual([[recent], [recent]])

    await insert(old)
    const job = startTelemetryHousekeeping({ db, now: () => server.clock, firstAfterMs: 60 * MINUTE })
    try {
      expect((await left()).map((rows) => rows.length)).toEqual([2, 2])
      expect(await job.runNow()).toBeGreaterThanOrEqual(2)
      expect(await left()).toEqual([[recent], [recent]])
    } finally {
      await job.stop()
    }
  })
})
