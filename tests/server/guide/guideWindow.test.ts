import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { takeLease } from "../../../src/server/db/jobLease.ts"
import { GUIDE_REFRESH_LEASE } from "../../../src/server/guide/guideRefresh.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { load, xmltv } from "./guideFixtures.ts"

interface Window {
  readonly from: string
  readonly to: string
  readonly programmes: ReadonlyArray<{ StartTime: string; EndTime: string; Title: string; Subtitle: string }>
}

describe.each(dialects)("a stream's time-shift window in the guide ($name)", (dialect) => {
  let server: TestServer
  let token = ""
  const ids: Record<string, number> = {}
  beforeAll(async () => {
    server = await startTestServer(dialect)
    const db = server.db.kysely
    // the refresh job would prune the past days these tests look at: it finds its lease taken
    await takeLease(db, { name: GUIDE_REFRESH_LEASE, holder: "these tests", now: Date.now(), until: Date.UTC(2100, 0, 1) })
    for (const [title, epg] of [
      ["Sports One", "sport1.tv"],
      ["Sports Two", "sport2.tv"],
      ["Plain", null]
    ] as const) {
      ids[title] = (await insertStream(db, { title, src: "/live/x/index.m3u8", epg_channel_id: epg })).id
    }
    await load(
      db,
      xmltv(
        [
          { id: "sport1.tv", name: "Sport 1 HD" },
          { id: "sport2.tv", name: "Sport 2 HD" }
        ],
        [
          { channel: "sport1.tv", start: "2026-11-23T12:00:00Z", stop: "2026-11-23T15:30:00Z", title: "Over before the window" },
          { channel: "sport1.tv", start: "2026-11-23T15:30:00Z", stop: "2026-11-23T17:00:00Z", title: "Across its start" },
          { channel: "sport1.tv", start: "2026-11-23T17:00:00Z", stop: "2026-11-23T19:00:00Z", title: "Cup Final", subtitle: "Live" },
          { channel: "sport1.tv", start: "2026-11-23T19:00:00Z", stop: "2026-11-23T20:00:00Z", title: "On now" },
          { channel: "sport1.tv", start: "2026-11-23T20:00:00Z", stop: "2026-11-23T21:00:00Z", title: "Next" },
          { channel: "sport2.tv", start: "2026-11-23T19:00:00Z", stop: "2026-11-23T20:00:00Z", title: "Other channel" }
        ]
      )
    )
    server.clock = Date.parse("2026-11-23T19:30:00Z")
    const user = await server.addUser()
    token = await server.signIn(user.email)
  })
  afterAll(() => server.dispose())

  const window = async (streamId: number | string): Promise<Window> => {
    const response = await server.call("guideWindow", { token, params: { streamId: String(streamId) } })
    expect(response.statusCode, response.body).toBe(200)
    return (response.json() as { data: Window }).data
  }

  it("answers the programmes of the stream's channel that overlap the last timeshiftHours (4 by default), by start", async () => {
    const answer = await window(ids["Sports One"] ?? 0)
    expect(answer.from).toBe("2026-11-23T15:30:00.000Z")
    expect(answer.to).toBe("2026-11-23T19:30:00.000Z")
    expect(answer.programmes.map((programme) => programme.Title)).toEqual(["Across its start", "Cup Final", "On now"])
    expect(answer.programmes[1]).toEqual({
      StartTime: "2026-11-23T17:00:00.000Z",
      EndTime: "2026-11-23T19:00:00.000Z",
      Title: "Cup Final",
      Subtitle: "Live"
    })
    expect((await window(ids["Sports Two"] ?? 0)).programmes.map((programme) => programme.Title)).toEqual(["Other channel"])
  })

  it("follows the site setting, and has nothing when time-shift is off", async () => {
    await setSetting(server.db.kysely, "timeshiftHours", 1)
    expect((await window(ids["Sports One"] ?? 0)).programmes.map((programme) => programme.Title)).toEqual(["Cup Final", "On now"])
    await setSetting(server.db.kysely, "timeshiftHours", 0)
    expect((await window(ids["Sports One"] ?? 0)).programmes).toEqual([])
    await setSetting(server.db.kysely, "timeshiftHours", 4)
  })

  it("answers an empty window for a stream without a guide or one that does not exist", async () => {
    expect((await window(ids.Plain ?? 0)).programmes).toEqual([])
    expect((await window(987654)).programmes).toEqual([])
  })

  it("refuses an id that is none (400, resultCode 19) and callers without a session (403)", async () => {
    for (const streamId of ["0", "abc", "-1", "12345678901"]) {
      const response = await server.call("guideWindow", { token, params: { streamId } })
      expect(response.statusCode, streamId).toBe(400)
      expect(response.json()).toMatchObject({ success: false, status: 400, resultCode: 19 })
    }
    expect((await server.call("guideWindow", { params: { streamId: "1" } })).statusCode).toBe(403)
  })
})
