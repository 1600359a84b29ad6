import ICAL from "ical.js"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import {
  MAX_REMINDERS,
  PROGRAMME_NOT_FOUND,
  PROGRAMME_STARTED,
  REMINDER_NOT_FOUND,
  REMINDER_REMOVED,
  TOO_MANY_REMINDERS
} from "../../../src/domain/Reminder.ts"
import { readPlayerStart } from "../../../src/domain/Timeshift.ts"
import { takeLease } from "../../../src/server/db/jobLease.ts"
import { GUIDE_REFRESH_LEASE } from "../../../src/server/guide/guideRefresh.ts"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { CALENDAR_REQUESTS_PER_MINUTE } from "../../../src/server/reminders/calendarFeed.ts"
import { runReminderPass, startReminderJob } from "../../../src/server/reminders/reminderJob.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { hourly, load, xmltv } from "../guide/guideFixtures.ts"

const PUBLIC_URL = "https://tv.example.test"
const NOW = Date.parse("2026-01-15T12:00:00Z")
const MATCH = "2026-01-15T20:00:00.000Z"
const channels = [{ id: "sport1.tv", name: "Sport 1 HD" }]
/** The evening on Sport 1: news, the match at 20:00, highlights. */
const evening = (match: { start: string; stop: string } = { start: MATCH, stop: "2026-01-15T22:00:00.000Z" }) => [
  { channel: "sport1.tv", start: "2026-01-15T18:00:00Z", stop: "2026-01-15T20:00:00Z", title: "News" },
  { channel: "sport1.tv", start: match.start, stop: match.stop, title: "Football: Harbour City v Northfield" },
  { channel: "sport1.tv", start: "2026-01-16T00:00:00Z", stop: "2026-01-16T01:00:00Z", title: "Highlights" }
]

type Body = Record<string, unknown>

describe.each(dialects)("reminders ($name)", (dialect) => {
  let server: TestServer
  let streamId = 0
  let ann = ""
  let bob = ""

  const outbox = (kind: string) =>
    server.db.kysely
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", kind as "reminder")
      .orderBy("id")
      .execute()
  const pass = () =>
    runReminderPass({
      db: server.db.kysely,
      now: () => server.clock,
      site: async () => ({ siteName: "StreamHub", publicUrl: PUBLIC_URL }),
      mailWorker: { wake: () => undefined }
    })
  const create = (token: string, body: Body) => server.call("createReminder", { token, body })
  const list = async (token: string) => (await server.call("reminders", { token })).json().data as Array<Body>

  beforeAll(async () => {
    server = await startTestServer(dialect, { publicUrl: PUBLIC_URL })
    const db = server.db.kysely
    // the app's refresh job would prune and top up the guide under these tests: it finds its lease taken
    await takeLease(db, { name: GUIDE_REFRESH_LEASE, holder: "these tests", now: Date.now(), until: Date.UTC(2100, 0, 1) })
    streamId = (await insertStream(db, { title: "Sports One", src: "/live/demo1/index.m3u8", epg_channel_id: "sport1.tv" })).id
    await insertStream(db, { title: "No guide", src: "/live/demo2/index.m3u8" })
    const users = [await server.addUser({ email: "ann@example.com" }), await server.addUser({ email: "bob@example.com" })]
    ann = await server.signIn(users[0]?.email ?? "")
    bob = await server.signIn(users[1]?.email ?? "")
  })
  afterAll(() => server.dispose())
  beforeEach(async () => {
    server.clock = NOW
    await server.db.kysely.deleteFrom("reminders").execute()
    await server.db.kysely.deleteFrom("outbox").execute()
    await server.db.kysely.deleteFrom("guide_programmes").execute()
    await load(server.db.kysely, xmltv(channels, evening()))
  })

  it("sets, lists and removes a viewer's reminder, each viewer seeing only their own", async () => {
    const set = await create(ann, { streamId, startTime: "2026-01-15T20:00:00Z", leadMinutes: 15, timeZone: "Europe/Oslo" })
    expect(set.statusCode).toBe(200)
    const reminder = set.json().data as Body
    expect(reminder).toEqual({
      id: expect.any(Number),
      streamId,
      channel: "Sports One",
      title: "Football: Harbour City v Northfield",
      startTime: MATCH,
      endTime: "2026-01-15T22:00:00.000Z",
      leadMinutes: 15,
      remindAt: "2026-01-15T19:45:00.000Z",
      state: "pending"
    })
    // setting it again changes the lead, and keeps one reminder
    const again = (await create(ann, { streamId, startTime: MATCH, leadMinutes: 60 })).json().data as Body
    expect(again).toMatchObject({ id: reminder.id, leadMinutes: 60, remindAt: "2026-01-15T19:00:00.000Z" })
    expect(await list(ann)).toEqual([again])
    expect(await list(bob)).toEqual([])

    // another viewer cannot remove it; removing twice answers success both times
    expect((await server.call("deleteReminder", { token: bob, params: { id: String(reminder.id) } })).json()).toEqual({
      success: true,
      detail: REMINDER_NOT_FOUND
    })
    expect(await list(ann)).toHaveLength(1)
    expect((await server.call("deleteReminder", { token: ann, params: { id: String(reminder.id) } })).json()).toEqual({
      success: true,
      detail: REMINDER_REMOVED
    })
    expect(await list(ann)).toEqual([])
  })

  it("refuses a programme the guide does not have, or one already started, with a 4xx that says why", async () => {
    // while the news airs
    server.clock = Date.parse("2026-01-15T19:00:00Z")
    const refusals = [
      [{ streamId, startTime: "2026-01-15T20:30:00Z", leadMinutes: 10 }, 404, PROGRAMME_NOT_FOUND],
      [{ streamId: 999_999, startTime: MATCH, leadMinutes: 10 }, 404, PROGRAMME_NOT_FOUND],
      [{ streamId: streamId + 1, startTime: MATCH, leadMinutes: 10 }, 404, PROGRAMME_NOT_FOUND],
      [{ streamId, startTime: "2026-01-15T18:00:00Z", leadMinutes: 10 }, 409, PROGRAMME_STARTED]
    ] as const
    for (const [body, status, detail] of refusals) {
      const response = await create(ann, body)
      expect(response.statusCode, JSON.stringify(body)).toBe(status)
      expect(response.json()).toMatchObject({ success: false, status, detail })
    }
    const badLead = await create(ann, { streamId, startTime: MATCH, leadMinutes: 7 })
    expect(badLead.statusCode).toBe(400)
    expect(badLead.json().detail).toBe("leadMinutes: Choose 5, 10, 15, 30 or 60 minutes before the start")
    const badStart = await create(ann, { streamId, startTime: "tonight", leadMinutes: 10 })
    expect(badStart.statusCode).toBe(400)
    expect((await server.call("reminders")).statusCode).toBe(403)
    expect(await list(ann)).toEqual([])
  })

  it(`keeps at most ${MAX_REMINDERS} reminders of programmes to come per account`, async () => {
    const many = hourly("sport1.tv", "2026-01-16T00:00:00Z", "2026-01-20T06:00:00Z", "Hour")
    await load(server.db.kysely, xmltv(channels, many))
    for (const programme of many.slice(0, MAX_REMINDERS)) {
      expect((await create(bob, { streamId, startTime: programme.start, leadMinutes: 5 })).statusCode).toBe(200)
    }
    const refused = await create(bob, { streamId, startTime: many[MAX_REMINDERS]?.start, leadMinutes: 5 })
    expect(refused.statusCode).toBe(409)
    expect(refused.json().detail).toBe(TOO_MANY_REMINDERS)
    // one already set may still be changed
    expect((await create(bob, { streamId, startTime: many[0]?.start, leadMinutes: 30 })).statusCode).toBe(200)
  })

  it("mails a reminder once when it is due, across two job runners, with a link that opens the stream from the start", async () => {
    await create(ann, { streamId, startTime: MATCH, leadMinutes: 10, timeZone: "Europe/Oslo" })
    expect(await pass()).toMatchObject({ sent: 0 })
    server.clock = Date.parse("2026-01-15T19:50:00Z")
    const runner = (holder: string) =>
      startReminderJob({
        db: server.db.kysely,
        now: () => server.clock,
        site: async () => ({ siteName: "StreamHub", publicUrl: PUBLIC_URL }),
        mailWorker: { wake: () => undefined },
        holder,
        firstAfterMs: 24 * 60 * 60 * 1000
      })
    const [one, two] = [runner("instance one"), runner("instance two")]
    try {
      const passes = await Promise.all([one.runNow(), two.runNow(), pass(), pass()])
      expect(passes.reduce((sum, done) => sum + (done?.sent ?? 0), 0)).toBe(1)
    } finally {
      await Promise.all([one.stop(), two.stop()])
    }
    expect(await pass()).toMatchObject({ sent: 0 })
    const mails = await outbox("reminder")
    expect(mails).toHaveLength(1)
    const mail = mails[0]
    expect(mail?.to_address).toBe("ann@example.com")
    expect(mail?.subject).toBe("Starting soon: Football: Harbour City v Northfield on Sports One")
    expect(mail?.text_body).toContain('"Football: Harbour City v Northfield" starts at 21:00 CET on Thursday 15 January on Sports One.')
    const link = new URL(firstLink(mail?.text_body ?? "") ?? "")
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/player`)
    expect(readPlayerStart(link.search)).toEqual({ streamId, from: Date.parse(MATCH) })
    expect((await list(ann))[0]).toMatchObject({ state: "sent" })
  })

  it("follows a programme a guide refresh moved, and tells the viewer once of one it dropped", async () => {
    await create(ann, { streamId, startTime: MATCH, leadMinutes: 10 })
    await create(bob, { streamId, startTime: "2026-01-16T00:00:00Z", leadMinutes: 5 })
    // the match put back by an hour and a half; the highlights gone
    await load(
      server.db.kysely,
      xmltv(channels, [
        { channel: "sport1.tv", start: "2026-01-15T18:00:00Z", stop: "2026-01-15T21:30:00Z", title: "News" },
        {
          channel: "sport1.tv",
          start: "2026-01-15T21:30:00Z",
          stop: "2026-01-15T23:30:00Z",
          title: "Football: Harbour City v Northfield"
        },
        { channel: "sport1.tv", start: "2026-01-15T23:30:00Z", stop: "2026-01-16T01:00:00Z", title: "Film" }
      ])
    )
    expect(await pass()).toMatchObject({ moved: 1, dropped: 1, sent: 0 })
    expect(await list(ann)).toEqual([
      expect.objectContaining({
        startTime: "2026-01-15T21:30:00.000Z",
        endTime: "2026-01-15T23:30:00.000Z",
        remindAt: "2026-01-15T21:20:00.000Z",
        state: "pending"
      })
    ])
    expect(await list(bob)).toEqual([expect.objectContaining({ title: "Highlights", state: "dropped" })])
    expect(await pass()).toMatchObject({ moved: 0, dropped: 0 })
    const dropped = await outbox("reminder-dropped")
    expect(dropped.map((m) => [m.to_address, m.subject])).toEqual([["bob@example.com", "No longer in the guide: Highlights on Sports One"]])
    expect(dropped[0]?.text_body).toContain("is no longer in the programme guide")

    // the moved reminder goes at its new time, not the old one
    server.clock = Date.parse("2026-01-15T19:55:00Z")
    expect(await pass()).toMatchObject({ sent: 0 })
    server.clock = Date.parse("2026-01-15T21:20:00Z")
    expect(await pass()).toMatchObject({ sent: 1 })
    // once the programmes are over, their reminders are gone
    server.clock = Date.parse("2026-01-16T02:00:00Z")
    expect(await pass()).toMatchObject({ removed: 2 })
    expect(await list(ann)).toEqual([])
  })

  it("takes a new stop on the same start, and leaves a same-titled programme a day away alone", async () => {
    await create(ann, { streamId, startTime: MATCH, leadMinutes: 10 })
    await load(server.db.kysely, xmltv(channels, evening({ start: MATCH, stop: "2026-01-15T22:30:00.000Z" })))
    expect(await pass()).toMatchObject({ moved: 1 })
    expect((await list(ann))[0]).toMatchObject({ startTime: MATCH, endTime: "2026-01-15T22:30:00.000Z", state: "pending" })
    await load(
      server.db.kysely,
      xmltv(channels, [
        { channel: "sport1.tv", start: "2026-01-15T18:00:00Z", stop: "2026-01-16T01:00:00Z", title: "News" },
        {
          channel: "sport1.tv",
          start: "2026-01-16T20:00:00Z",
          stop: "2026-01-16T22:00:00Z",
          title: "Football: Harbour City v Northfield"
        }
      ])
    )
    expect(await pass()).toMatchObject({ moved: 0, dropped: 1 })
    expect((await list(ann))[0]).toMatchObject({ startTime: MATCH, state: "dropped" })
  })

  it("lists upcoming reminders in a private calendar feed that a new address replaces and revoking ends", async () => {
    expect((await server.call("calendarFeed", { token: ann })).json()).toEqual({ success: true, data: { active: false, createdAt: null } })
    await create(ann, { streamId, startTime: MATCH, leadMinutes: 10 })
    await create(ann, { streamId, startTime: "2026-01-16T00:00:00Z", leadMinutes: 30 })
    await create(bob, { streamId, startTime: MATCH, leadMinutes: 5 })
    const made = (await server.call("createCalendarFeed", { token: ann })).json().data as { url: string; createdAt: string }
    expect(made.url).toMatch(new RegExp(`^${PUBLIC_URL}/calendar/[A-Za-z0-9_-]{43}\\.ics$`))
    expect((await server.call("calendarFeed", { token: ann })).json().data).toEqual({ active: true, createdAt: made.createdAt })

    const path = new URL(made.url).pathname
    const response = await server.app.inject({ method: "GET", url: path })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toBe("text/calendar; charset=utf-8")
    const calendar = new ICAL.Component(ICAL.parse(response.body))
    expect(calendar.name).toBe("vcalendar")
    const events = calendar.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent)
      const trigger = vevent.getFirstSubcomponent("valarm")?.getFirstPropertyValue("trigger")
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
        utc: event.startDate.zone?.tzid,
        description: event.description,
        alarm: String(trigger)
      }
    })
    const reminders = await list(ann)
    expect(events).toEqual([
      {
        uid: `reminder-${reminders[0]?.id}@tv.example.test`,
        summary: "Football: Harbour City v Northfield (Sports One)",
        start: MATCH,
        end: "2026-01-15T22:00:00.000Z",
        utc: "UTC",
        description: `Football: Harbour City v Northfield on Sports One. Watch: ${PUBLIC_URL}/player?stream=${streamId}&from=2026-01-15T20%3A00%3A00.000Z`,
        alarm: "-PT10M"
      },
      expect.objectContaining({ uid: `reminder-${reminders[1]?.id}@tv.example.test`, summary: "Highlights (Sports One)", alarm: "-PT30M" })
    ])
    // the same UID when a refresh moves the programme, so calendar apps update their event
    await load(server.db.kysely, xmltv(channels, evening({ start: "2026-01-15T20:30:00.000Z", stop: "2026-01-15T22:30:00.000Z" })))
    await pass()
    const moved = new ICAL.Component(ICAL.parse((await server.app.inject({ method: "GET", url: path })).body))
    const first = new ICAL.Event(moved.getAllSubcomponents("vevent")[0])
    expect([first.uid, first.startDate.toJSDate().toISOString()]).toEqual([events[0]?.uid, "2026-01-15T20:30:00.000Z"])

    // a new address replaces the old one; revoking ends the new one too
    const replaced = (await server.call("createCalendarFeed", { token: ann })).json().data as { url: string }
    expect(replaced.url).not.toBe(made.url)
    expect((await server.app.inject({ method: "GET", url: path })).statusCode).toBe(404)
    expect((await server.app.inject({ method: "GET", url: new URL(replaced.url).pathname })).statusCode).toBe(200)
    expect((await server.call("revokeCalendarFeed", { token: ann })).json()).toMatchObject({ success: true })
    const revoked = await server.app.inject({ method: "GET", url: new URL(replaced.url).pathname })
    expect(revoked.statusCode).toBe(404)
    expect(revoked.json()).toEqual({ success: false, status: 404, detail: "Not found" })
    expect((await server.app.inject({ method: "GET", url: "/calendar/not-a-secret.ics" })).statusCode).toBe(404)
    expect((await server.call("calendarFeed", { token: ann })).json().data).toEqual({ active: false, createdAt: null })
  })

  it("limits how often one network may ask for calendar feeds, as the API's other public routes are", async () => {
    const ask = () => server.app.inject({ method: "GET", url: `/calendar/${"x".repeat(43)}.ics`, remoteAddress: "10.250.0.1" })
    for (let i = 0; i < CALENDAR_REQUESTS_PER_MINUTE; i += 1) expect((await ask()).statusCode).toBe(404)
    const refused = await ask()
    expect(refused.statusCode).toBe(429)
    expect(refused.json().detail).toMatch(/^Too many calendar requests from your network\. Try again in \d+ seconds\.$/)
  })
})
