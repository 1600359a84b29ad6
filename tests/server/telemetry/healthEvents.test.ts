import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HEALTH_EVENTS_PER_REQUEST, HEALTH_ID_MAX_LENGTH, HEALTH_URL_MAX_LENGTH } from "../../../src/domain/TelemetryLimits.ts"
import { pruneHealthOverBudget, startTelemetryHousekeeping } from "../../../src/server/telemetry/housekeeping.ts"
import { HEALTH_RECORDS_PER_MINUTE } from "../../../src/server/telemetry/telemetryQuotas.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, startTestServer, type TestServer } from "../../support/testServer.ts"

const record = (overrides: Record<string, unknown> = {}) => ({
  session_id: "player-session",
  device_id: "device-1",
  version: "3.4.5",
  source: "/live/demo1/index.m3u8",
  page_url: "/playertv?default=0",
  ids: { media_id: "1", site_id: "web", sitegroup_id: "default", player_id: "tv" },
  plugins: ["analytics", "health"],
  event: "playing",
  current_time: 1.5,
  client_time: 1_000,
  adjusted_time: 1_250,
  ...overrides
})
const records = (count: number) => Array.from({ length: count }, (_, n) => record({ current_time: n }))

describe.each(dialects)("health beacons ($name)", (dialect) => {
  let server: TestServer
  let viewerId: number
  let token: string
  const stored = async () =>
    Number(
      (
        await server.db.kysely
          .selectFrom("health_events")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n
    )
  /** What navigator.sendBeacon sends: text/plain JSON, no headers of its own. */
  const beacon = (payload: string) =>
    server.app.inject({
      method: "POST",
      url: "/api/health-events",
      remoteAddress: nextIp(),
      headers: { "content-type": "text/plain;charset=UTF-8" },
      payload
    })

  beforeAll(async () => {
    server = await startTestServer(dialect)
    viewerId = (await server.addUser({ email: "viewer@example.com" })).id
    token = await server.signIn("viewer@example.com")
  })
  afterAll(() => server.dispose())

  it("refuses beacons without a live session with 403 and stores nothing", async () => {
    const ended = await server.signIn("viewer@example.com")
    expect((await server.call("logout", { token: ended })).statusCode).toBe(200)
    const before = await stored()
    const refusals = [
      await beacon(JSON.stringify({ events: [record()] })),
      await beacon(JSON.stringify({ token: "", events: [record()] })),
      await beacon(JSON.stringify({ token: "made-up-token-made-up-token-made-up-token-1", events: [record()] })),
      await beacon(JSON.stringify({ token: ended, events: [record()] })),
      await beacon(JSON.stringify({ token: 42, events: [record()] })),
      await server.call("healthEvents", { body: { events: [record()] } }),
      await server.call("healthEvents", { token: ended, body: { events: [record()] } })
    ]
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(403)
      expect(response.json()).toEqual({ success: false, status: 403, detail: expect.stringMatching(/sign in/) })
    }
    expect(await stored()).toBe(before)
  })

  it("stores a beacon whose body carries the session's token, under that session's account", async () => {
    const before = await stored()
    const response = await beacon(JSON.stringify({ token, events: [record({ event: "firstframe", first_frame_ms: 800 }), record()] }))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toEqual({ success: true })
    const rows = await server.db.kysely.selectFrom("health_events").selectAll().orderBy("id").execute()
    expect(rows).toHaveLength(before + 2)
    expect(rows.at(-2)).toMatchObject({ event: "firstframe", user_id: viewerId })
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  it("answers 400 resultCode 19 for a text over its cap, storing nothing", async () => {
    const before = await stored()
    const long = (length: number) => "x".repeat(length)
    for (const [overrides, path] of [
      [{ session_id: long(HEALTH_ID_MAX_LENGTH + 1) }, "events.0.session_id"],
      [{ device_id: long(HEALTH_ID_MAX_LENGTH + 1) }, "events.0.device_id"],
      [{ event: long(HEALTH_ID_MAX_LENGTH + 1) }, "events.0.event"],
      [{ page_url: `/${long(HEALTH_URL_MAX_LENGTH)}` }, "events.0.page_url"],
      [{ source: long(HEALTH_URL_MAX_LENGTH + 1) }, "events.0.source"],
      [{ ids: { ...record().ids, media_id: long(HEALTH_ID_MAX_LENGTH + 1) } }, "events.0.ids.media_id"],
      [{ plugins: [long(HEALTH_ID_MAX_LENGTH + 1)] }, "events.0.plugins.0"]
    ] as const) {
      const response = await beacon(JSON.stringify({ token, events: [record(overrides)] }))
      expect(response.statusCode, path).toBe(400)
      expect(response.json()).toEqual({
        success: false,
        status: 400,
        resultCode: 19,
        detail: `${path}: Expected a value with a length of at most ${path.includes("url") || path.includes("source") ? HEALTH_URL_MAX_LENGTH : HEALTH_ID_MAX_LENGTH}`
      })
    }
    // at the caps exactly, the record is taken
    const full = record({
      session_id: long(HEALTH_ID_MAX_LENGTH),
      page_url: long(HEALTH_URL_MAX_LENGTH),
      source: long(HEALTH_URL_MAX_LENGTH)
    })
    expect((await beacon(JSON.stringify({ token, events: [full] }))).statusCode).toBe(200)
    expect(await stored()).toBe(before + 1)
  })

  it(`answers 400 resultCode 19 for more than ${HEALTH_EVENTS_PER_REQUEST} records, storing nothing`, async () => {
    const before = await stored()
    const response = await beacon(JSON.stringify({ token, events: records(HEALTH_EVENTS_PER_REQUEST + 1) }))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      success: false,
      status: 400,
      resultCode: 19,
      detail: `events: Expected a value with a length of at most ${HEALTH_EVENTS_PER_REQUEST}`
    })
    expect(await stored()).toBe(before)
  })

  it("answers 400 resultCode 19 for numbers JSON reads as infinite (1e309), storing nothing", async () => {
    const before = await stored()
    const text = JSON.stringify({ token, events: [record({ current_time: 1234567 })] })
    for (const [payload, path] of [
      [text.replace("1234567", "1e309"), "events.0.current_time"],
      [text.replace("1234567", "-1e309"), "events.0.current_time"],
      [text.replace('"client_time":1000', '"client_time":1e400'), "events.0.client_time"],
      [text.replace('"adjusted_time":1250', '"adjusted_time":-1e999'), "events.0.adjusted_time"]
    ] as const) {
      expect(payload).toMatch(/e[34]\d\d|e999/)
      const response = await beacon(payload)
      expect(response.statusCode, payload).toBe(400)
      expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail: `${path}: Expected a finite number` })
    }
    const firstFrame = text.replace('"current_time":1234567', '"current_time":1,"first_frame_ms":1e309')
    expect((await beacon(firstFrame)).json()).toMatchObject({
      status: 400,
      resultCode: 19,
      detail: "events.0.first_frame_ms: Expected a value between 0 and 600000"
    })
    expect(await stored()).toBe(before)
  })

  it(`answers 429 once a session has sent ${HEALTH_RECORDS_PER_MINUTE} records within a minute, other sessions going on`, async () => {
    const user = await server.addUser({ email: "busy@example.com" })
    const busy = await server.signIn(user.email)
    const other = await server.signIn(user.email)
    const before = await stored()
    const full = HEALTH_RECORDS_PER_MINUTE / HEALTH_EVENTS_PER_REQUEST
    for (let n = 0; n < full; n++) {
      expect((await beacon(JSON.stringify({ token: busy, events: records(HEALTH_EVENTS_PER_REQUEST) }))).statusCode).toBe(200)
    }
    const refused = await beacon(JSON.stringify({ token: busy, events: [record()] }))
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      success: false,
      status: 429,
      detail: "Too many health events from this session. Try again in 60 seconds."
    })
    expect(refused.headers["retry-after"]).toBe("60")
    // an empty beacon counts too, and the fetch fallback's header names the same session
    expect((await server.call("healthEvents", { token: busy, body: { events: [] } })).statusCode).toBe(429)
    expect(await stored()).toBe(before + HEALTH_RECORDS_PER_MINUTE)

    expect((await beacon(JSON.stringify({ token: other, events: [record()] }))).statusCode).toBe(200)
    server.clock += 45_000
    expect((await beacon(JSON.stringify({ token: busy, events: [record()] }))).json()).toMatchObject({
      status: 429,
      detail: "Too many health events from this session. Try again in 15 seconds."
    })
    server.clock += 15_000
    expect((await beacon(JSON.stringify({ token: busy, events: [record()] }))).statusCode).toBe(200)
    expect(await stored()).toBe(before + HEALTH_RECORDS_PER_MINUTE + 2)
  })

  it("prunes the oldest health records beyond the row budget, in batches, keeping the newest", async () => {
    const db = server.db.kysely
    await db.deleteFrom("health_events").execute()
    const row = (n: number) => ({
      user_id: viewerId,
      session_id: "s",
      device_id: "d",
      version: "3.4.5",
      event: `e${n}`,
      current_time: n,
      client_time: n,
      adjusted_time: n,
      source: "",
      page_url: "",
      received_at: new Date(server.clock).toISOString(),
      ip: "10.0.0.1"
    })
    await db
      .insertInto("health_events")
      .values(Array.from({ length: 23 }, (_, n) => row(n)))
      .execute()
    const events = async () => (await db.selectFrom("health_events").select("event").orderBy("id").execute()).map((r) => r.event)

    expect(await pruneHealthOverBudget(db, { healthRowBudget: 30, batch: 4 })).toBe(0)
    expect(await pruneHealthOverBudget(db, { healthRowBudget: 10, batch: 4 })).toBe(13)
    expect(await events()).toEqual(Array.from({ length: 10 }, (_, n) => `e${n + 13}`))

    // the housekeeping job enforces it too, within the retention's pass
    await db
      .insertInto("health_events")
      .values([row(23), row(24), row(25)])
      .execute()
    const job = startTelemetryHousekeeping({ db, now: () => server.clock, healthRowBudget: 5, batch: 2, firstAfterMs: 60 * 60 * 1000 })
    try {
      expect(await job.runNow()).toBe(8)
    } finally {
      await job.stop()
    }
    expect(await events()).toEqual(["e21", "e22", "e23", "e24", "e25"])
  })
})
