import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { takeLease } from "../../../src/server/db/jobLease.ts"
import { demoGuide } from "../../../src/server/guide/guideFeature.ts"
import { GUIDE_REFRESH_LEASE } from "../../../src/server/guide/guideRefresh.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { load, xmltv } from "./guideFixtures.ts"

type Items = ReadonlyArray<{
  Channel: { Name: string; StreamId?: number }
  EpgList: ReadonlyArray<{ StartTime: string; EndTime: string; Title: string; Subtitle: string }>
}>

describe.each(dialects)("the guide's endpoints ($name)", (dialect) => {
  let server: TestServer
  let token = ""
  const ids: Record<string, number> = {}
  beforeAll(async () => {
    server = await startTestServer(dialect)
    const db = server.db.kysely
    // the app's refresh job would prune the past days these tests look at: it finds its lease taken
    await takeLease(db, { name: GUIDE_REFRESH_LEASE, holder: "these tests", now: Date.now(), until: Date.UTC(2100, 0, 1) })
    for (const [title, epg] of [
      ["Sports One", "sport1.tv"],
      ["Plain", null],
      ["Sports Two", "sport2.tv"],
      ["Waiting", "unknown.tv"],
      ["Demo", "demo9.streamhub.demo"]
    ] as const) {
      ids[title] = (await insertStream(db, { title, src: "/live/x/index.m3u8", epg_channel_id: epg })).id
    }
    await load(
      db,
      xmltv(
        [
          { id: "sport2.tv", name: "Sport 2 HD" },
          { id: "sport1.tv", name: "Sport 1 HD" },
          { id: "zeta.tv", name: "Zeta TV" },
          { id: "alpha.tv", name: "alpha TV" },
          { id: "secret.tv", name: "Secret Sports" },
          { id: "gone.tv", name: "Off air" }
        ],
        [
          // the evening before, across midnight, and a programme ending exactly as the day starts
          { channel: "sport1.tv", start: "2026-11-22T22:00:00Z", stop: "2026-11-23T00:00:00Z", title: "Ends at midnight" },
          {
            channel: "sport1.tv",
            start: "2026-11-23T00:00:00Z",
            stop: "2026-11-23T01:30:00Z",
            title: "Late Match",
            subtitle: "Extra time"
          },
          { channel: "sport1.tv", start: "2026-11-23T23:00:00Z", stop: "2026-11-24T01:00:00Z", title: "Night Match" },
          { channel: "sport1.tv", start: "2026-11-24T00:00:00Z", stop: "2026-11-24T01:00:00Z", title: "Tomorrow" },
          { channel: "sport2.tv", start: "2026-11-22T23:00:00Z", stop: "2026-11-23T02:00:00Z", title: "Across midnight" },
          { channel: "zeta.tv", start: "2026-11-23T12:00:00Z", stop: "2026-11-23T13:00:00Z", title: "Zeta News" },
          { channel: "alpha.tv", start: "2026-11-23T09:00:00Z", stop: "2026-11-23T10:00:00Z", title: "Alpha Morning" },
          { channel: "secret.tv", start: "2026-11-23T09:00:00Z", stop: "2026-11-23T10:00:00Z", title: "Hidden Cup" },
          { channel: "gone.tv", start: "2026-11-20T09:00:00Z", stop: "2026-11-20T10:00:00Z", title: "Long over" }
        ]
      )
    )
    // a generated channel shows while a stream plays it, and not once that stream is gone
    await demoGuide.addChannel(db, { id: "demo9.streamhub.demo", name: "Demo Nine" }, "2026-11-20T00:00:00.000Z")
    await demoGuide.addChannel(db, { id: "demo8.streamhub.demo", name: "Demo Eight" }, "2026-11-20T00:00:00.000Z")
    await db
      .insertInto("guide_programmes")
      .values([
        {
          channel_id: "demo9.streamhub.demo",
          start_at: "2026-11-23T08:00:00.000Z",
          stop_at: "2026-11-23T09:00:00.000Z",
          title: "Demo",
          subtitle: ""
        },
        {
          channel_id: "demo8.streamhub.demo",
          start_at: "2026-11-23T08:00:00.000Z",
          stop_at: "2026-11-23T09:00:00.000Z",
          title: "Orphan",
          subtitle: ""
        }
      ])
      .execute()
    server.clock = Date.parse("2026-11-22T12:00:00Z")
    const user = await server.addUser()
    token = await server.signIn(user.email)
  })
  afterAll(() => server.dispose())

  const schedule = async (day: string, tz?: string): Promise<Items> => {
    const response = await server.call("schedule", { token, params: { id: day }, ...(tz === undefined ? {} : { query: { tz } }) })
    expect(response.statusCode, response.body).toBe(200)
    return (response.json() as { data: { Items: Items } }).data.Items
  }
  const summary = (items: Items) => items.map((item) => `${item.Channel.Name}: ${item.EpgList.map((e) => e.Title).join(", ")}`)

  it("answers a day's programmes by channel: streams' channels in stream order, then the rest by name", async () => {
    const items = await schedule("2026-11-23")
    expect(summary(items)).toEqual([
      "Sports One: Late Match, Night Match",
      "Sports Two: Across midnight",
      "Demo: Demo",
      "alpha TV: Alpha Morning",
      "Secret Sports: Hidden Cup",
      "Zeta TV: Zeta News"
    ])
    expect(items[0]).toEqual({
      Channel: { Name: "Sports One", StreamId: ids["Sports One"] },
      EpgList: [
        { StartTime: "2026-11-23T00:00:00.000Z", EndTime: "2026-11-23T01:30:00.000Z", Title: "Late Match", Subtitle: "Extra time" },
        { StartTime: "2026-11-23T23:00:00.000Z", EndTime: "2026-11-24T01:00:00.000Z", Title: "Night Match", Subtitle: "" }
      ]
    })
    expect(items[3]?.Channel).toEqual({ Name: "alpha TV" })
    expect(await schedule("2026-12-25")).toEqual([])
  })

  it("takes the day in the viewer's zone, 25 hours long when the clocks go back", async () => {
    // Europe/Oslo, 2026-10-25: from 22:00 UTC on the 24th to 23:00 UTC on the 25th
    await load(
      server.db.kysely,
      xmltv(
        [{ id: "sport1.tv", name: "Sport 1 HD" }],
        [
          { channel: "sport1.tv", start: "2026-10-24T21:00:00Z", stop: "2026-10-24T22:00:00Z", title: "Saturday 23:00" },
          { channel: "sport1.tv", start: "2026-10-24T22:00:00Z", stop: "2026-10-24T23:00:00Z", title: "Sunday 00:00" },
          { channel: "sport1.tv", start: "2026-10-25T00:30:00Z", stop: "2026-10-25T01:30:00Z", title: "Sunday 02:30 summer" },
          { channel: "sport1.tv", start: "2026-10-25T01:30:00Z", stop: "2026-10-25T02:30:00Z", title: "Sunday 02:30 winter" },
          { channel: "sport1.tv", start: "2026-10-25T22:00:00Z", stop: "2026-10-25T23:00:00Z", title: "Sunday 23:00" },
          { channel: "sport1.tv", start: "2026-10-25T23:00:00Z", stop: "2026-10-26T00:00:00Z", title: "Monday 00:00" }
        ]
      )
    )
    const oslo = await schedule("2026-10-25", "Europe/Oslo")
    expect(summary(oslo)).toEqual(["Sports One: Sunday 00:00, Sunday 02:30 summer, Sunday 02:30 winter, Sunday 23:00"])
    const utc = await schedule("2026-10-25")
    expect(summary(utc)).toEqual(["Sports One: Sunday 02:30 summer, Sunday 02:30 winter, Sunday 23:00, Monday 00:00"])
    // fourteen hours ahead of UTC, its Sunday is mostly UTC's Saturday
    expect(summary(await schedule("2026-10-25", "Pacific/Kiritimati"))).toEqual([
      "Sports One: Saturday 23:00, Sunday 00:00, Sunday 02:30 summer, Sunday 02:30 winter"
    ])
  })

  it("hides the channel named by the site setting, by its guide name or its stream's title", async () => {
    await setSetting(server.db.kysely, "hiddenScheduleChannel", "secret sports")
    expect(summary(await schedule("2026-11-23")).map((line) => line.split(":")[0])).toEqual([
      "Sports One",
      "Sports Two",
      "Demo",
      "alpha TV",
      "Zeta TV"
    ])
    await setSetting(server.db.kysely, "hiddenScheduleChannel", "Sports Two")
    expect(summary(await schedule("2026-11-23")).map((line) => line.split(":")[0])).toEqual([
      "Sports One",
      "Demo",
      "alpha TV",
      "Secret Sports",
      "Zeta TV"
    ])
    await setSetting(server.db.kysely, "hiddenScheduleChannel", "")
  })

  it("answers what airs now and next on each stream with a guide", async () => {
    server.clock = Date.parse("2026-11-23T00:45:00Z")
    const response = await server.call("nowNext", { token })
    expect(response.statusCode).toBe(200)
    expect((response.json() as { data: unknown }).data).toEqual([
      {
        streamId: ids["Sports One"],
        now: { StartTime: "2026-11-23T00:00:00.000Z", EndTime: "2026-11-23T01:30:00.000Z", Title: "Late Match", Subtitle: "Extra time" },
        next: { StartTime: "2026-11-23T23:00:00.000Z", EndTime: "2026-11-24T01:00:00.000Z", Title: "Night Match", Subtitle: "" }
      },
      {
        streamId: ids["Sports Two"],
        now: { StartTime: "2026-11-22T23:00:00.000Z", EndTime: "2026-11-23T02:00:00.000Z", Title: "Across midnight", Subtitle: "" },
        next: null
      },
      {
        streamId: ids.Demo,
        now: null,
        next: { StartTime: "2026-11-23T08:00:00.000Z", EndTime: "2026-11-23T09:00:00.000Z", Title: "Demo", Subtitle: "" }
      }
    ])
    server.clock = Date.parse("2026-11-23T09:30:00Z")
    expect((await server.call("nowNext", { token })).json()).toMatchObject({
      data: [
        { streamId: ids["Sports One"], now: null, next: { Title: "Night Match" } },
        { streamId: ids["Sports Two"], now: null, next: null },
        { streamId: ids.Demo, now: null, next: null }
      ]
    })
  })

  it("refuses a day that is no date and a zone that is none (400, resultCode 19)", async () => {
    for (const call of [
      { params: { id: "2026-02-30" } },
      { params: { id: "23.11.2026" } },
      { params: { id: "2026-11-23" }, query: { tz: "Mars/Olympus" } },
      { params: { id: "2026-11-23" }, query: { tz: "" } }
    ]) {
      const response = await server.call("schedule", { token, ...call })
      expect(response.statusCode, JSON.stringify(call)).toBe(400)
      expect(response.json()).toMatchObject({ success: false, status: 400, resultCode: 19 })
    }
  })

  it("answers 403 without a live session", async () => {
    for (const headers of [{}, { token: "not-a-session" }]) {
      const schedule = await server.call("schedule", { params: { id: "2026-11-23" }, ...headers })
      expect(schedule.statusCode).toBe(403)
      expect(schedule.json()).toMatchObject({ success: false, status: 403 })
      expect((await server.call("nowNext", headers)).statusCode).toBe(403)
    }
  })
})
