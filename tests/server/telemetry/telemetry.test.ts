import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashToken } from "../../../src/server/account/sessions.ts"
import { playerTokenOf } from "../../../src/server/connections/playerTokens.ts"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { setNoMetering } from "../../../src/server/telemetry/playerToken.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, startTestServer, type TestServer } from "../../support/testServer.ts"

const analyticsBody = (overrides: Record<string, unknown> = {}) => ({
  session_id: "player-session",
  sitegroup_id: "streamhub",
  media_id: "1",
  site_id: "web",
  player_id: "tv",
  video_type: "live",
  created: Date.UTC(2026, 0, 15, 12),
  position: 0,
  player_version: "3.4.5",
  source: "hls",
  category: "sports",
  category_id: "1",
  autoplay: true,
  muted: true,
  customer_user_id: "someone-else",
  ...overrides
})
const healthIds = { media_id: "7", site_id: "web", sitegroup_id: "default", player_id: "tv" }
const healthEvent = {
  session_id: "player-session",
  device_id: "device-1",
  version: "3.4.5",
  source: "hls",
  page_url: "/playertv?default=0",
  ids: healthIds,
  plugins: ["analytics", "health"],
  event: "play",
  current_time: 1.5,
  client_time: 1_000,
  adjusted_time: 1_250
}
const invalid = (detail: string) => ({ success: false, status: 400, resultCode: 19, detail })

describe.each(dialects)("player telemetry ($name)", (dialect) => {
  let server: TestServer
  let viewer: UserRow
  let token: string
  const rows = {
    metering: () => server.db.kysely.selectFrom("metering").selectAll().orderBy("id").execute(),
    analytics_events: () => server.db.kysely.selectFrom("analytics_events").selectAll().orderBy("id").execute(),
    health_events: () => server.db.kysely.selectFrom("health_events").selectAll().orderBy("id").execute(),
    player_connections: () => server.db.kysely.selectFrom("player_connections").selectAll().orderBy("id").execute()
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    viewer = await server.addUser({ email: "viewer@example.com" })
    token = await server.signIn("viewer@example.com")
  })
  afterAll(() => server.dispose())

  describe("player token", () => {
    it("is a short per-session fingerprint, never the session token", async () => {
      const answer = (await server.call("playerToken", { token })).json() as { token: string }
      expect(answer).toEqual({ success: true, token: playerTokenOf(hashToken(token)), analytics: true, noMetering: false })
      expect(answer.token).toMatch(/^[A-Za-z0-9_-]{16}$/)
      expect(token).not.toContain(answer.token)
      const other = await server.signIn("viewer@example.com")
      expect((await server.call("playerToken", { token: other })).json()).not.toMatchObject({ token: answer.token })
      expect((await server.call("playerToken")).statusCode).toBe(403)
    })
  })

  describe("metering", () => {
    const meter = (body: Record<string, unknown>, as: string = token) =>
      server.call("metering", { ...(as === "anonymous" ? {} : { token: as }), body })

    it("records the session's use and answers success", async () => {
      const response = await meter({ token_id: playerTokenOf(hashToken(token)), factor: 1, rnd: "abc" })
      expect(response.json()).toEqual({ success: true })
      expect(await rows.metering()).toEqual([
        expect.objectContaining({
          user_id: viewer.id,
          token_id: playerTokenOf(hashToken(token)),
          factor: 1,
          received_at: new Date(server.clock).toISOString()
        })
      ])
    })

    it("answers 401 for a token of another session and keeps nothing", async () => {
      const other = await server.signIn("viewer@example.com")
      for (const tokenId of [playerTokenOf(hashToken(other)), "made-up", token]) {
        const response = await meter({ token_id: tokenId, factor: 1, rnd: "abc" })
        expect(response.statusCode).toBe(401)
        expect(response.json()).toEqual({ success: false, status: 401, detail: "The token online validation failed" })
      }
      expect(await rows.metering()).toHaveLength(1)
    })

    it("refuses anonymous callers with 403 and bad bodies with 400", async () => {
      expect((await meter({ token_id: "x", factor: 1, rnd: "a" }, "anonymous")).statusCode).toBe(403)
      const tokenId = playerTokenOf(hashToken(token))
      for (const [body, detail] of [
        [{ token_id: tokenId, factor: 1 }, "rnd: Missing key"],
        [{ token_id: tokenId, factor: "1", rnd: "a" }, "factor: Expected number"],
        [{ token_id: tokenId, factor: 0, rnd: "a" }, "factor: Expected a number above 0 and at most 100"],
        [{ token_id: tokenId, factor: 101, rnd: "a" }, "factor: Expected a number above 0 and at most 100"]
      ] as const) {
        const response = await meter(body)
        expect(response.statusCode).toBe(400)
        expect(response.json()).toEqual(invalid(detail))
      }
      expect(await rows.metering()).toHaveLength(1)
    })

    it("accepts but does not record use by an account with the no-metering permission", async () => {
      const exempt = await server.addUser({ email: "operator@example.com" })
      await setNoMetering(server.db.kysely, exempt.id, true)
      const session = await server.signIn("operator@example.com")
      expect((await server.call("playerToken", { token: session })).json()).toMatchObject({ noMetering: true })
      expect((await meter({ token_id: playerTokenOf(hashToken(session)), factor: 1, rnd: "a" }, session)).json()).toEqual({ success: true })
      expect((await rows.metering()).filter((row) => row.user_id === exempt.id)).toEqual([])
      await setNoMetering(server.db.kysely, exempt.id, false)
      expect((await server.call("playerToken", { token: session })).json()).toMatchObject({ noMetering: false })
    })
  })

  describe("analytics", () => {
    const send = (event: string, body: Record<string, unknown>, options: { videoType?: string; as?: string; ip?: string } = {}) =>
      server.call("analytics", {
        params: { videoType: options.videoType ?? "live", siteGroupId: "streamhub", event },
        body,
        ...(options.as === "anonymous" ? {} : { token: options.as ?? token }),
        ...(options.ip === undefined ? {} : { ip: options.ip })
      })

    it("stores events with the session's account and IP; display is no heartbeat, view and ping are", async () => {
      const ip = nextIp()
      expect((await send("display", analyticsBody(), { ip })).json()).toEqual({ success: true })
      expect(await rows.player_connections()).toEqual([])
      await send("view", analyticsBody(), { ip })
      server.clock += 60_000
      await send("ping", analyticsBody({ position: 60 }), { ip })
      const events = await rows.analytics_events()
      expect(events.map((e) => [e.event, JSON.parse(e.position)])).toEqual([
        ["display", 0],
        ["view", 0],
        ["ping", 60]
      ])
      expect(events[2]).toMatchObject({
        user_id: viewer.id,
        video_type: "live",
        sitegroup_id: "streamhub",
        media_id: "1",
        session_id: "player-session",
        player_id: "tv",
        created: Date.UTC(2026, 0, 15, 12),
        received_at: new Date(server.clock).toISOString(),
        ip
      })
      expect(await rows.player_connections()).toEqual([
        expect.objectContaining({
          user_id: viewer.id,
          token: playerTokenOf(hashToken(token)),
          ip,
          app: "tv",
          first_seen: new Date(server.clock - 60_000).toISOString(),
          last_seen: new Date(server.clock).toISOString()
        })
      ])
    })

    it("stores the newly reached slices of a VOD ping", async () => {
      await send("ping", analyticsBody({ video_type: "vod", position: [0, 1, 2], player_id: "lls" }), { videoType: "vod" })
      const last = (await rows.analytics_events()).at(-1)
      expect(JSON.parse(last?.position ?? "null")).toEqual([0, 1, 2])
      expect((await rows.player_connections()).map((c) => c.app)).toContain("lls")
    })

    it("refuses anonymous callers with 403 and bad input with 400", async () => {
      const before = (await rows.analytics_events()).length
      expect((await send("view", analyticsBody(), { as: "anonymous" })).statusCode).toBe(403)
      for (const [event, body, videoType, detail] of [
        ["ping", analyticsBody({ position: [1] }), "live", "position: Expected a number of seconds"],
        [
          "ping",
          analyticsBody({ video_type: "vod", position: 5 }),
          "vod",
          "position: Expected the 100-slice indexes reached since the last ping"
        ],
        ["ping", analyticsBody({ video_type: "vod", position: [100] }), "vod", "position: Expected slice indexes from 0 to 99"],
        ["ping", analyticsBody({ position: -1 }), "live", "position: Expected a number of seconds of at least 0"],
        ["view", analyticsBody({ video_type: "vod" }), "live", 'video_type: Expected "live" as in the path'],
        ["view", analyticsBody({ sitegroup_id: "other" }), "live", "sitegroup_id: Expected the site group of the path"],
        ["view", analyticsBody({ muted: "yes" }), "live", "muted: Expected boolean"],
        ["view", analyticsBody({ session_id: "s".repeat(65) }), "live", "session_id: Expected a value with a length of at most 64"],
        ["view", analyticsBody({ category: "c".repeat(257) }), "live", "category: Expected a value with a length of at most 256"],
        ["click", analyticsBody(), "live", 'event: Expected "display" | "ping" | "view"'],
        ["view", analyticsBody(), "dvr", 'videoType: Expected "live" | "vod"']
      ] as const) {
        const response = await send(event, body, { videoType })
        expect(response.statusCode, detail).toBe(400)
        expect(response.json()).toEqual(invalid(detail))
      }
      expect(await rows.analytics_events()).toHaveLength(before)
    })
  })

  describe("health events", () => {
    it("stores a JSON batch with the session's account when a Token is sent", async () => {
      const ip = nextIp()
      expect(
        (await server.call("healthEvents", { token, ip, body: { events: [healthEvent, { ...healthEvent, event: "pause" }] } })).json()
      ).toEqual({ success: true })
      const stored = await rows.health_events()
      expect(stored).toHaveLength(2)
      expect(stored[0]).toMatchObject({
        ...healthEvent,
        ids: JSON.stringify(healthIds),
        plugins: JSON.stringify(["analytics", "health"]),
        user_id: viewer.id,
        ip,
        received_at: new Date(server.clock).toISOString()
      })
    })

    it("keeps records from a tab on an earlier build, which carry no ids or plugins", async () => {
      const { ids: _ids, plugins: _plugins, ...older } = healthEvent
      const before = (await rows.health_events()).length
      expect((await server.call("healthEvents", { token, ip: nextIp(), body: { events: [{ ...older, event: "older" }] } })).json()).toEqual(
        { success: true }
      )
      const stored = await rows.health_events()
      expect(stored).toHaveLength(before + 1)
      expect(stored.at(-1)).toMatchObject({ event: "older", ids: "{}", plugins: "[]" })
    })

    it("stores a text/plain beacon under the session its body's token names", async () => {
      const beacon = await server.app.inject({
        method: "POST",
        url: "/api/health-events",
        remoteAddress: "10.9.9.9",
        headers: { "content-type": "text/plain;charset=UTF-8" },
        payload: JSON.stringify({ token, events: [{ ...healthEvent, event: "ended" }] })
      })
      expect(beacon.statusCode).toBe(200)
      expect((await rows.health_events()).at(-1)).toMatchObject({ event: "ended", user_id: viewer.id, ip: "10.9.9.9" })
    })

    it("refuses more than 50 events and malformed ones, keeping none", async () => {
      const before = (await rows.health_events()).length
      const tooMany = await server.call("healthEvents", { token, body: { events: Array.from({ length: 51 }, () => healthEvent) } })
      expect(tooMany.statusCode).toBe(400)
      expect(tooMany.json()).toMatchObject({ resultCode: 19, detail: expect.stringMatching(/^events: /) })
      const bad = await server.call("healthEvents", { token, body: { events: [healthEvent, { ...healthEvent, client_time: "now" }] } })
      expect(bad.json()).toEqual(invalid("events.1.client_time: Expected number"))
      expect(
        (await server.call("healthEvents", { token, body: { events: Array.from({ length: 50 }, () => healthEvent) } })).statusCode
      ).toBe(200)
      expect(await rows.health_events()).toHaveLength(before + 50)
    })
  })

  describe("budgets", () => {
    const analytics = (as: string) =>
      server.call("analytics", { params: { videoType: "live", siteGroupId: "streamhub", event: "view" }, body: analyticsBody(), token: as })

    it("refuse a session's and then its account's analytics beyond their minute with 429, keeping none of the refused", async () => {
      const user = await server.addUser({ email: "chatty@example.com" })
      const [first, second, third] = [await server.signIn(user.email), await server.signIn(user.email), await server.signIn(user.email)]
      const before = (await rows.analytics_events()).length
      const perSession = 60
      for (let n = 0; n < perSession; n++) expect((await analytics(first)).statusCode).toBe(200)
      const refused = await analytics(first)
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toEqual({
        success: false,
        status: 429,
        detail: "Too many analytics events from this session. Try again in 60 seconds."
      })
      expect(refused.headers["retry-after"]).toBe("60")
      for (let n = 0; n < perSession; n++) expect((await analytics(second)).statusCode).toBe(200)
      expect((await analytics(third)).json()).toMatchObject({
        status: 429,
        detail: "Too many analytics events from this account. Try again in 60 seconds."
      })
      // other accounts go on
      expect((await analytics(token)).statusCode).toBe(200)
      expect(await rows.analytics_events()).toHaveLength(before + 2 * perSession + 1)
      server.clock += 60_000
      expect((await analytics(third)).statusCode).toBe(200)
    })

    it("refuse an account's health records beyond its minute, whichever session sends them", async () => {
      const user = await server.addUser({ email: "beacons@example.com" })
      const sessions = [await server.signIn(user.email), await server.signIn(user.email), await server.signIn(user.email)]
      const before = (await rows.health_events()).length
      const full = { events: Array.from({ length: 50 }, () => healthEvent) }
      for (const session of sessions.slice(0, 2)) {
        for (let n = 0; n < 6; n++) expect((await server.call("healthEvents", { token: session, body: full })).statusCode).toBe(200)
      }
      const refused = await server.call("healthEvents", { token: sessions[2], body: { events: [healthEvent] } })
      expect(refused.json()).toMatchObject({ status: 429, detail: "Too many health events from this account. Try again in 60 seconds." })
      expect(await rows.health_events()).toHaveLength(before + 600)
    })

    it("refuse metering beyond a session's minute", async () => {
      const session = await server.signIn("viewer@example.com")
      const body = { token_id: playerTokenOf(hashToken(session)), factor: 1, rnd: "x" }
      for (let n = 0; n < 30; n++) expect((await server.call("metering", { token: session, body })).statusCode).toBe(200)
      expect((await server.call("metering", { token: session, body })).json()).toMatchObject({
        status: 429,
        detail: "Too many metering calls from this session. Try again in 60 seconds."
      })
    })
  })

  it("time sync answers the server clock", async () => {
    expect((await server.call("timeSync")).json()).toEqual({ millisUtc: server.clock })
  })
})
