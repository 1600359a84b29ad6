import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_SITE_SETTINGS } from "../../../src/domain/SiteSettings.ts"
import { insertAnnouncement } from "../../../src/server/shell/announcementsRepo.ts"
import { setMaintenance } from "../../../src/server/shell/maintenanceRepo.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

describe.each(dialects)("content endpoints ($name)", (dialect) => {
  let server: TestServer
  let customer: string

  beforeAll(async () => {
    server = await startTestServer(dialect)
    const user = await server.addUser({ email: "fan@example.com" })
    customer = await server.signIn(user.email)
  })
  afterAll(() => server.dispose())

  it("maintenance is public and reflects the stored status", async () => {
    expect((await server.call("maintenance")).json()).toEqual({ maintenanceMode: false, title: "", firstRowText: "", secondRowText: "" })
    await setMaintenance(server.db.kysely, {
      maintenance_mode: true,
      title: "Back soon",
      first_row_text: "Upgrading",
      second_row_text: "10 minutes"
    })
    expect((await server.call("maintenance", { token: customer })).json()).toEqual({
      maintenanceMode: true,
      title: "Back soon",
      firstRowText: "Upgrading",
      secondRowText: "10 minutes"
    })
    await setMaintenance(server.db.kysely, { maintenance_mode: false })
  })

  it("site settings are public: defaults overlaid with stored values of the right type", async () => {
    expect((await server.call("siteSettings")).json()).toEqual({ success: true, data: DEFAULT_SITE_SETTINGS })
    await setSetting(server.db.kysely, "pricePerRewardPoint", 0.5)
    await setSetting(server.db.kysely, "siteName", 42)
    expect((await server.call("siteSettings")).json()).toEqual({
      success: true,
      data: { ...DEFAULT_SITE_SETTINGS, pricePerRewardPoint: 0.5 }
    })
    const info = await server.call("userInfo", { token: customer, body: {} })
    expect(info.json()).toMatchObject({ data: { pricePerRewardPoint: 0.5 } })
  })

  it("the announcement needs a session and answers NOT_FOUND until there is one", async () => {
    expect((await server.call("announcement")).statusCode).toBe(403)
    expect((await server.call("announcement", { token: customer })).json()).toEqual({ resultCode: 24 })
    await insertAnnouncement(server.db.kysely, { token: "a1", title: "Old", text: "old", created_at: "2026-01-01T00:00:00.000Z" })
    await insertAnnouncement(server.db.kysely, {
      token: "a2",
      title: "New",
      text: "Cup final tonight",
      created_at: "2026-01-02T00:00:00.000Z"
    })
    expect((await server.call("announcement", { token: customer })).json()).toEqual({
      resultCode: 1,
      token: "a2",
      title: "New",
      text: "Cup final tonight"
    })
  })

  it("streams need a session and come in display order", async () => {
    expect((await server.call("streams")).statusCode).toBe(403)
    expect((await server.call("streams", { token: customer })).json()).toEqual({ success: true, data: [] })
    await insertStream(server.db.kysely, { title: "Second", src: "https://example.com/b.m3u8", position: 2 })
    const first = await insertStream(server.db.kysely, {
      title: "First",
      src: "/live/demo1/index.m3u8",
      src_sldp: "/live/demo1/index.m3u8",
      image_location: "/posters/demo1.svg",
      tags: "lls,?Demo",
      tags_sldp: "lls",
      maintenance_mode: true,
      position: 1
    })
    const body = (await server.call("streams", { token: customer })).json() as { data: Array<{ title: string }> }
    expect(body.data.map((s) => s.title)).toEqual(["First", "Second"])
    expect(body.data[0]).toEqual({
      id: first.id,
      title: "First",
      src: expect.stringMatching(/^\/live\/demo1\/index\.m3u8\?grant=g1\..+\.tv\.demo1\./),
      src_sldp: expect.stringMatching(/^\/live\/demo1\/index\.m3u8\?grant=g1\..+\.lls\.demo1\./),
      image_location: "/posters/demo1.svg",
      tags: "lls,?Demo",
      tags_sldp: "lls",
      maintenance_mode: true
    })
    expect(body.data[1]).toMatchObject({
      src: "https://example.com/b.m3u8",
      src_sldp: null,
      image_location: "",
      tags: "",
      maintenance_mode: false
    })
  })

  it("time sync answers the server clock", async () => {
    const response = await server.call("timeSync")
    expect(response.json()).toEqual({ millisUtc: server.clock })
    expect(response.headers["cache-control"]).toBe("no-store")
  })

  describe("health beacons", () => {
    const event = {
      session_id: "s",
      device_id: "d",
      version: "3.4.5",
      source: "hls",
      page_url: "/player",
      ids: { media_id: "1", site_id: "web", sitegroup_id: "default", player_id: "tv" },
      plugins: ["health"],
      event: "play",
      current_time: 1,
      client_time: 2,
      adjusted_time: 3
    }

    it("are accepted as JSON and as text/plain (navigator.sendBeacon)", async () => {
      expect((await server.call("healthEvents", { token: customer, body: { events: [event] } })).json()).toEqual({ success: true })
      const beacon = await server.app.inject({
        method: "POST",
        url: "/api/health-events",
        headers: { "content-type": "text/plain;charset=UTF-8" },
        payload: JSON.stringify({ token: customer, events: [event, event] })
      })
      expect(beacon.statusCode).toBe(200)
      expect(beacon.json()).toEqual({ success: true })
    })

    it("refuse malformed text and text/plain elsewhere", async () => {
      const malformed = await server.app.inject({
        method: "POST",
        url: "/api/health-events",
        headers: { "content-type": "text/plain", token: customer },
        payload: "{events:"
      })
      expect(malformed.statusCode).toBe(400)
      expect(malformed.json()).toEqual({ success: false, status: 400, resultCode: 19, detail: "Malformed JSON body" })
      const elsewhere = await server.app.inject({
        method: "POST",
        url: "/api/users/login",
        headers: { "content-type": "text/plain" },
        payload: JSON.stringify({ email: "fan@example.com", password: "x" })
      })
      expect(elsewhere.statusCode).toBe(415)
      expect(elsewhere.json()).toMatchObject({ success: false, status: 415 })
    })

    it("validate the events", async () => {
      const response = await server.call("healthEvents", { token: customer, body: { events: [{ ...event, current_time: "1" }] } })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ resultCode: 19, detail: "events.0.current_time: Expected number" })
    })
  })
})
