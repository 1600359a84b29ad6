import { randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { verificationMail } from "../../../src/server/account/accountMails.ts"
import { openDatabase } from "../../../src/server/db/database.ts"
import type { Tables } from "../../../src/server/db/schema.ts"
import { LEASE_MS, type MailWorker, startMailWorker } from "../../../src/server/mail/mailWorker.ts"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { enqueueMail } from "../../../src/server/mail/outbox.ts"
import { claimMail, DELIVERED_BODY, findOutboxMail, requeueFailedMails } from "../../../src/server/mail/outboxRepo.ts"
import { type MailLogger, type MailTransport, smtpTransport } from "../../../src/server/mail/transports.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { ticketReplyMail } from "../../../src/server/support/supportMails.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

const T0 = new Date("2025-03-01T10:00:00.000Z")
const SITE = { siteName: "StreamHub", publicUrl: "https://tv.example.com" }
const FROM = "StreamHub <no-reply@streamhub.test>"
const verifyFor = (to: string, token = "tok-123") => verificationMail({ ...SITE, to, token })

function recordingLogger(): MailLogger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`)
  }
}

describe.each(dialects)("mail outbox on $name", (dialect) => {
  let test: TestDatabase
  let db: Kysely<Tables>
  let peer: SmtpPeer
  let transport: MailTransport
  let clock: Date
  let logger: ReturnType<typeof recordingLogger>
  const workers: MailWorker[] = []
  const start = (options: Partial<Parameters<typeof startMailWorker>[0]> = {}) => {
    const worker = startMailWorker({ db, transport, logger, now: () => clock, pollMs: 60_000, ...options })
    workers.push(worker)
    return worker
  }
  const row = async (id: number) => (await findOutboxMail(db, id))!

  beforeEach(async () => {
    test = await dialect.create()
    db = test.db.kysely
    peer = await startSmtpPeer()
    transport = smtpTransport(peer.url, { from: FROM })
    clock = T0
    logger = recordingLogger()
  })
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()))
    transport.close()
    await peer.stop()
    await test.dispose()
  })

  it("delivers an enqueued mail over SMTP with both parts and the link, then marks it sent", async () => {
    const worker = start()
    // A real token makes the link long enough to be folded by quoted-printable on the way.
    const token = randomBytes(32).toString("base64url")
    const id = await enqueueMail(db, verifyFor("ann@example.com", token), T0)
    expect(await row(id)).toMatchObject({ status: "pending", attempts: 0, next_attempt_at: T0.toISOString() })
    await worker.drain()

    expect(peer.messages).toHaveLength(1)
    const mail = peer.messages[0]!
    expect(mail).toMatchObject({ to: "ann@example.com", from: "no-reply@streamhub.test" })
    expect(mail.subject).toBe("Confirm your email address for StreamHub")
    expect(firstLink(mail.text)).toBe(`https://tv.example.com/verify?token=${token}`)
    expect(mail.html).toContain(`href="https://tv.example.com/verify?token=${token}"`)
    expect(mail.raw).toMatch(/^Auto-Submitted: auto-generated\r?$/m)
    expect(await row(id)).toMatchObject({ status: "sent", sent_at: T0.toISOString(), attempts: 0, last_error: null })
    // The link was single-use and is in the recipient's mailbox now; the outbox keeps no copy.
    expect(await row(id)).toMatchObject({
      subject: mail.subject,
      to_address: "ann@example.com",
      text_body: DELIVERED_BODY,
      html_body: DELIVERED_BODY
    })

    await worker.drain()
    expect(peer.messages).toHaveLength(1)
  })

  it("carries non-ASCII text, long lines and markup through unchanged", async () => {
    const worker = start()
    const mail = ticketReplyMail({
      ...SITE,
      siteName: "Stådium TV",
      to: "bo@example.com",
      ticketSubject: "Buffering on «Canal 5» — ça coupe",
      message: `Hi Bø,\n\n${"We restarted the encoder feeding that channel. ".repeat(6)}\n<b>Tip</b>: reload 🙂`
    })
    await enqueueMail(db, mail, T0)
    await worker.drain()
    const received = await peer.waitForMessage((m) => m.to === "bo@example.com")
    expect(received.subject).toBe(mail.subject)
    expect(received.text).toBe(mail.text)
    expect(received.html).toBe(mail.html)
  })

  it("sends a Unicode domain in ASCII and gives up at once on a non-ASCII local part", async () => {
    const worker = start()
    const unicodeDomain = await enqueueMail(db, verifyFor("old@bücher.de"), T0)
    const unicodeLocal = await enqueueMail(db, verifyFor("émile@example.com"), T0)
    await worker.drain()
    // (smtp-server hands back envelope domains in Unicode, so the header shows what went over the wire)
    expect(peer.messages).toHaveLength(1)
    expect(peer.messages[0]?.raw).toMatch(/^To: old@xn--bcher-kva\.de\r?$/m)
    expect(await row(unicodeDomain)).toMatchObject({ status: "sent" })
    expect(await row(unicodeLocal)).toMatchObject({ status: "failed", attempts: 1, sent_at: null })
    expect((await row(unicodeLocal)).last_error).toContain("not an address mail can be delivered to")
  })

  it("sets Reply-To on support mails to the site's support address, and on no other mail", async () => {
    const worker = start()
    const reply = () =>
      ticketReplyMail({ ...SITE, to: "bo@example.com", ticketSubject: "Sound", message: "Fixed", supportEmail: "help@bücher.de" })
    await enqueueMail(db, reply(), T0)
    await worker.drain()
    expect(peer.messages[0]?.raw).not.toMatch(/^Reply-To:/im)

    await setSetting(db, "supportEmail", "help@xn--bcher-kva.de")
    await enqueueMail(db, reply(), T0)
    await enqueueMail(db, verifyFor("ann@example.com"), T0)
    await worker.drain()
    const [, support, verify] = peer.messages
    expect(support?.raw).toMatch(/^Reply-To: help@xn--bcher-kva\.de\r?$/m)
    expect(support?.raw).toMatch(/^From: StreamHub <no-reply@streamhub\.test>\r?$/m)
    expect(verify?.raw).not.toMatch(/^Reply-To:/im)
  })

  it("sends nothing for a mail enqueued in a transaction that rolled back", async () => {
    const worker = start()
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueMail(trx, verifyFor("ann@example.com"), T0)
        throw new Error("registration failed")
      })
    ).rejects.toThrow("registration failed")
    await worker.drain()
    expect(peer.messages).toEqual([])
    expect(await db.selectFrom("outbox").selectAll().execute()).toEqual([])
  })

  it("backs off while the peer refuses and delivers once it accepts", async () => {
    const worker = start()
    peer.setRejecting(true)
    const id = await enqueueMail(db, verifyFor("ann@example.com"), T0)
    await worker.drain()
    const failed = await row(id)
    expect(failed).toMatchObject({
      status: "pending",
      attempts: 1,
      sent_at: null,
      next_attempt_at: new Date(T0.getTime() + 30_000).toISOString()
    })
    expect(failed.last_error).toContain("451")
    expect(logger.lines.some((l) => l.startsWith("warn mail #") && l.includes("attempt 1 of 8"))).toBe(true)

    // Not due yet: nothing is tried.
    clock = new Date(T0.getTime() + 29_999)
    await worker.drain()
    expect((await row(id)).attempts).toBe(1)

    clock = new Date(T0.getTime() + 30_000)
    await worker.drain()
    expect(await row(id)).toMatchObject({ attempts: 2, next_attempt_at: new Date(clock.getTime() + 60_000).toISOString() })

    peer.setRejecting(false)
    clock = new Date(clock.getTime() + 60_000)
    await worker.drain()
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 2, last_error: null, sent_at: clock.toISOString() })
    expect(peer.messages.map((m) => m.to)).toEqual(["ann@example.com"])
  })

  it("marks a mail failed after the last attempt and leaves it alone", async () => {
    const worker = start({ retry: { maxAttempts: 3 } })
    peer.setRejecting(true)
    const id = await enqueueMail(db, verifyFor("ann@example.com"), T0)
    for (let i = 0; i < 5; i++) {
      await worker.drain()
      clock = new Date(clock.getTime() + 60 * 60_000)
    }
    expect(await row(id)).toMatchObject({ status: "failed", attempts: 3, sent_at: null })
    // Kept whole, so an operator can send it again once the relay is fixed (`mail:retry`).
    expect((await row(id)).text_body).toContain("/verify?token=tok-123")
    expect(logger.lines.filter((l) => l.startsWith("error ")).join("\n")).toContain("failed 3 times, giving up")

    // What `mail:retry` does once the relay works again.
    peer.setRejecting(false)
    expect(await requeueFailedMails(db, clock.toISOString(), [id])).toEqual([id])
    await worker.drain()
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 0, text_body: DELIVERED_BODY })
    expect(peer.messages.map((m) => m.to)).toEqual(["ann@example.com"])
  })

  it("finishes the send in flight on stop, and a restarted worker delivers what is still pending", async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const inFlight: string[] = []
    const gated: MailTransport = {
      description: "gated",
      async send(mail) {
        inFlight.push(mail.to)
        await gate
        await transport.send(mail)
      },
      close() {}
    }
    const first = await enqueueMail(db, verifyFor("one@example.com"), T0)
    const second = await enqueueMail(db, verifyFor("two@example.com"), T0)
    const worker = start({ transport: gated })
    await expect.poll(() => inFlight).toEqual(["one@example.com"])
    const stopped = worker.stop()
    release()
    await stopped
    expect((await row(first)).status).toBe("sent")
    expect(await row(second)).toMatchObject({ status: "pending", text_body: expect.stringContaining("/verify?token=tok-123") })

    // A new process: its own connection to the same database.
    await test.db.close()
    const reopened = await openDatabase({ dataDir: test.dataDir, databaseUrl: test.databaseUrl })
    try {
      db = reopened.kysely
      await start({ db }).drain()
      expect(peer.messages.map((m) => m.to)).toEqual(["one@example.com", "two@example.com"])
      expect(firstLink(peer.messages[1]!.text)).toBe("https://tv.example.com/verify?token=tok-123")
      expect(await row(second)).toMatchObject({ status: "sent", text_body: DELIVERED_BODY })
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()))
      await reopened.close()
    }
  })

  it("retries a mail whose worker died mid-send once its lease has run out", async () => {
    const id = await enqueueMail(db, verifyFor("ann@example.com"), T0)
    const leaseUntil = new Date(T0.getTime() + LEASE_MS)
    expect(await claimMail(db, id, T0.toISOString(), leaseUntil.toISOString())).toBe(true)
    const worker = start()
    await worker.drain()
    expect(peer.messages).toEqual([])
    clock = leaseUntil
    await worker.drain()
    expect(peer.messages.map((m) => m.to)).toEqual(["ann@example.com"])
  })

  it("delivers on wake() without waiting for a poll", async () => {
    // the next poll comes long after the mail is given up on: only wake() can have sent it
    const worker = start({ pollMs: 4 * WAIT_MS })
    await worker.drain()
    await enqueueMail(db, verifyFor("ann@example.com"), T0)
    worker.wake()
    const received = await peer.waitForMessage((m) => m.to === "ann@example.com")
    expect(firstLink(received.text)).toBe("https://tv.example.com/verify?token=tok-123")
  })
})
