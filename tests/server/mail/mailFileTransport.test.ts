import { readdir, readFile, stat } from "node:fs/promises"
import path from "node:path"
import type { Kysely } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { passwordResetMail } from "../../../src/server/account/accountMails.ts"
import type { Tables } from "../../../src/server/db/schema.ts"
import { startMailWorker } from "../../../src/server/mail/mailWorker.ts"
import { enqueueMail } from "../../../src/server/mail/outbox.ts"
import { createTransport, type MailLogger } from "../../../src/server/mail/transports.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { parseMessage } from "../../support/smtpPeer.ts"

// Without SMTP_URL mail lands in DATA_DIR/outbox as .eml files, so a fresh install works.

const T0 = new Date("2025-03-01T10:00:00.000Z")
const SITE = { siteName: "StreamHub", publicUrl: "https://tv.example.com" }
const FROM = "StreamHub <no-reply@streamhub.test>"

function recordingLogger(): MailLogger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`)
  }
}

describe.each(dialects)("mail file transport on $name", (dialect) => {
  let test: TestDatabase
  let db: Kysely<Tables>
  beforeEach(async () => {
    test = await dialect.create()
    db = test.db.kysely
  })
  afterEach(() => test.dispose())

  it("writes .eml files under DATA_DIR/outbox and logs the link when there is no SMTP_URL", async () => {
    const fileLogger = recordingLogger()
    const files = createTransport({ dataDir: test.dataDir, mailFrom: FROM }, fileLogger)
    expect(files.description).toBe(`files in ${path.join(test.dataDir, "outbox")}`)
    const mail = passwordResetMail({ ...SITE, to: "ann@example.com", token: "reset-token" })
    await enqueueMail(db, mail, T0)
    const worker = startMailWorker({ db, transport: files, logger: fileLogger, now: () => T0, pollMs: 60_000 })
    await worker.drain()
    await worker.stop()

    const outbox = path.join(test.dataDir, "outbox")
    const names = await readdir(outbox)
    expect(names).toHaveLength(1)
    expect(names[0]).toMatch(/\.eml$/)
    const file = path.join(outbox, names[0]!)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const raw = await readFile(file, "utf8")
    const parsed = parseMessage(raw)
    expect(parsed.headers.get("to")).toBe("ann@example.com")
    expect(parsed.headers.get("from")).toBe(FROM)
    expect(parsed.headers.get("subject")).toBe(mail.subject)
    expect(parsed.text).toBe(mail.text)
    expect(parsed.html).toBe(mail.html)
    const link = "https://tv.example.com/password-reset-confirmation?token=reset-token"
    expect(fileLogger.lines.some((l) => l.startsWith("info ") && l.includes(link) && l.includes(file))).toBe(true)
    expect(await db.selectFrom("outbox").select("status").execute()).toEqual([{ status: "sent" }])
  })

  it("picks SMTP when SMTP_URL is set, without showing its password", () => {
    const config = { smtpUrl: "smtp://mailer:s3cret@127.0.0.1:2525", dataDir: test.dataDir, mailFrom: FROM }
    const smtp = createTransport(config, recordingLogger())
    expect(smtp.description).toBe("SMTP smtp://mailer:***@127.0.0.1:2525")
    smtp.close()
  })

  it("writes the Reply-To a mail is sent with into its .eml", async () => {
    const files = createTransport({ dataDir: test.dataDir, mailFrom: FROM }, recordingLogger())
    await files.send({ to: "bo@example.com", subject: "Re: Sound", text: "Fixed\n", html: "<p>Fixed</p>", replyTo: "help@example.com" })
    files.close()
    const dir = path.join(test.dataDir, "outbox")
    const [name] = (await readdir(dir)).filter((file) => file.endsWith(".eml"))
    const eml = await readFile(path.join(dir, name ?? ""), "utf8")
    expect(eml).toMatch(/^Reply-To: help@example\.com\r$/m)
    expect(eml).toMatch(/^From: StreamHub <no-reply@streamhub\.test>\r$/m)
  })
})
