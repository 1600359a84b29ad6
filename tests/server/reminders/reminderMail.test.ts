import { randomBytes } from "node:crypto"
import type { FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, type EndpointName } from "../../../src/domain/contract/api.ts"
import { buildPath } from "../../../src/domain/contract/endpoint.ts"
import { readPlayerStart } from "../../../src/domain/Timeshift.ts"
import { hashPassword } from "../../../src/server/account/passwords.ts"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { buildApp } from "../../../src/server/app.ts"
import { loadConfig } from "../../../src/server/config.ts"
import { takeLease } from "../../../src/server/db/jobLease.ts"
import { GUIDE_REFRESH_LEASE } from "../../../src/server/guide/guideRefresh.ts"
import { type MailWorker, startMailWorker } from "../../../src/server/mail/mailWorker.ts"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { createTransport, type MailLogger, type MailTransport } from "../../../src/server/mail/transports.ts"
import { runReminderPass } from "../../../src/server/reminders/reminderJob.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"
import { expectContractShape, nextIp, PASSWORD } from "../../support/testServer.ts"
import { load, xmltv } from "../guide/guideFixtures.ts"

// A reminder from "Remind me" to the viewer's mailbox with nothing faked: the app stores it, the
// reminder pass queues the mail when it is due, the real worker (woken by the pass, never by its
// poll) delivers it over SMTP to a real server, and the link in it names the stream and the start.

const PUBLIC_URL = "https://tv.example.test"
const quiet: MailLogger = { info: () => undefined, warn: () => undefined, error: () => undefined }

describe.each(dialects)("reminder mail over SMTP ($name)", (dialect) => {
  let database: TestDatabase
  let peer: SmtpPeer
  let transport: MailTransport
  let worker: MailWorker
  let app: FastifyInstance
  let clock = Date.parse("2026-03-10T12:00:00Z")
  let streamId = 0

  beforeAll(async () => {
    database = await dialect.create()
    peer = await startSmtpPeer()
    const config = loadConfig({
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl,
      STATIC_DIR: database.dataDir,
      PUBLIC_URL,
      SMTP_URL: peer.url,
      MAIL_FROM: "Kickoff <no-reply@tv.example.test>"
    })
    transport = createTransport(config, quiet)
    worker = startMailWorker({ db: database.db.kysely, transport, logger: quiet, pollMs: 60 * 60 * 1000 })
    app = await buildApp({ config, db: database.db, mail: worker, now: () => clock, reminders: { firstAfterMs: 24 * 60 * 60 * 1000 } })
    const db = database.db.kysely
    await takeLease(db, { name: GUIDE_REFRESH_LEASE, holder: "this test", now: Date.now(), until: Date.UTC(2100, 0, 1) })
    await insertUser(db, {
      username: "ann",
      email: "ann@example.com",
      password_hash: await hashPassword(PASSWORD),
      invite_token: randomBytes(16).toString("base64url"),
      email_verified_at: new Date(clock).toISOString()
    })
    streamId = (await insertStream(db, { title: "Sports One", src: "/live/demo1/index.m3u8", epg_channel_id: "sport1.tv" })).id
    await load(
      db,
      xmltv(
        [{ id: "sport1.tv", name: "Sport 1 HD" }],
        [{ channel: "sport1.tv", start: "2026-03-10T19:30:00Z", stop: "2026-03-10T21:30:00Z", title: "Cup Final: Eastbrook v Kingsmoor" }]
      )
    )
  })
  afterAll(async () => {
    await app.close()
    await worker.stop()
    transport.close()
    await peer.stop()
    await database.dispose()
  })

  const call = async (name: EndpointName, options: { body?: object; token?: string } = {}) => {
    const endpoint = api[name]
    const response = await app.inject({
      method: endpoint.method,
      url: buildPath(endpoint.path, undefined),
      remoteAddress: nextIp(),
      headers: options.token === undefined ? {} : { token: options.token },
      ...(options.body === undefined ? {} : { payload: options.body })
    })
    expectContractShape(name, response)
    return response.json() as Record<string, unknown>
  }

  it("mails the reminder at its lead before the start, naming the programme, channel and time, with a link that plays it", async () => {
    const { token } = (await call("login", { body: { email: "ann@example.com", password: PASSWORD } })) as { token: string }
    expect(
      await call("createReminder", {
        token,
        body: { streamId, startTime: "2026-03-10T19:30:00Z", leadMinutes: 30, timeZone: "Asia/Kolkata" }
      })
    ).toMatchObject({ success: true, data: { remindAt: "2026-03-10T19:00:00.000Z", state: "pending" } })

    const pass = () =>
      runReminderPass({
        db: database.db.kysely,
        now: () => clock,
        site: async () => ({ siteName: "Kickoff", publicUrl: PUBLIC_URL }),
        mailWorker: worker
      })
    expect(await pass()).toMatchObject({ sent: 0 })
    clock = Date.parse("2026-03-10T19:00:00Z")
    expect(await pass()).toMatchObject({ sent: 1 })

    const mail = await peer.waitForMessage((m) => m.to === "ann@example.com")
    expect(mail.subject).toBe("Starting soon: Cup Final: Eastbrook v Kingsmoor on Sports One")
    expect(mail.raw).toMatch(/^From: Kickoff <no-reply@tv\.example\.test>/m)
    expect(mail.text).toContain('"Cup Final: Eastbrook v Kingsmoor" starts at 01:00 GMT+5:30 on Wednesday 11 March on Sports One.')
    expect(mail.text).toContain("30 minutes before the start")
    expect(mail.text).toContain(`${PUBLIC_URL}/reminders`)
    expect(mail.text).toMatch(/The Kickoff team\n$/)
    const link = new URL(firstLink(mail.text) ?? "")
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/player`)
    expect(readPlayerStart(link.search)).toEqual({ streamId, from: Date.parse("2026-03-10T19:30:00Z") })
    expect(mail.html).toContain(link.href.replace(/&/g, "&amp;"))
    expect(mail.html).toContain(">Watch on Kickoff</a>")

    // once only
    expect(await pass()).toMatchObject({ sent: 0 })
    await worker.drain()
    expect(peer.messages.filter((m) => m.to === "ann@example.com")).toHaveLength(1)
  })
})
