import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { passwordResetMail } from "../../../src/server/account/accountMails.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { type Config, loadConfig } from "../../../src/server/config.ts"
import type { MailStatus } from "../../../src/server/db/schema.ts"
import { enqueueMail } from "../../../src/server/mail/outbox.ts"
import { ABANDONED_BODY, findOutboxMail } from "../../../src/server/mail/outboxRepo.ts"
import { ticketReplyMail } from "../../../src/server/support/supportMails.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0)
const SITE = { siteName: "StreamHub", publicUrl: "http://localhost:8080" }

describe.each(dialects)("operator CLI: mail ($name)", (dialect) => {
  let database: TestDatabase
  let config: Config
  beforeEach(async () => {
    database = await dialect.create()
    config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl })
  })
  afterEach(() => database.dispose())

  const admin = async (...argv: string[]) => {
    const lines: string[] = []
    const code = await runAdmin(argv, { config, out: (text) => lines.push(text), db: database.db, now: () => NOW })
    return { code, output: lines.join("\n") }
  }
  const db = () => database.db.kysely

  /** A reset mail to `to` in `status`, as the worker leaves it. */
  const mail = async (to: string, status: MailStatus, error: string | null = null) => {
    const id = await enqueueMail(db(), passwordResetMail({ ...SITE, to, token: "tok" }), new Date(NOW - 60_000))
    await db()
      .updateTable("outbox")
      .set({ status, attempts: status === "failed" ? 8 : 0, last_error: error })
      .where("id", "=", id)
      .execute()
    return id
  }

  it("lists mails newest first, or only those of one status", async () => {
    const sent = await mail("ann@example.com", "sent")
    const failed = await mail("bob@example.com", "failed", "550 mailbox unavailable")
    const pending = await mail("cy@example.com", "pending")

    const all = await admin("mail:list")
    expect(all.code).toBe(0)
    const lines = all.output.split("\n")
    expect(lines[0]).toMatch(/^id\s+status\s+kind\s+to\s+subject\s+tries\s+created \(UTC\)\s+last error$/)
    expect(lines.slice(2).map((line) => line.split(/\s+/).slice(0, 4))).toEqual([
      [String(pending), "pending", "reset", "cy@example.com"],
      [String(failed), "failed", "reset", "bob@example.com"],
      [String(sent), "sent", "reset", "ann@example.com"]
    ])
    expect(lines[3]).toContain("550 mailbox unavailable")
    expect(lines[3]).toContain("2026-01-15 11:59")

    const onlyFailed = await admin("mail:list", "--status", "failed")
    expect(
      onlyFailed.output
        .split("\n")
        .slice(2)
        .map((line) => line.split(/\s+/)[0])
    ).toEqual([String(failed)])
    expect(await admin("mail:list", "--status", "sent", "--limit", "1")).toMatchObject({
      code: 0,
      output: expect.stringContaining("(the newest 1; use --limit to see more)")
    })
  })

  it("says so when there is nothing to list, and refuses a bad status or limit with exit 2", async () => {
    expect(await admin("mail:list")).toEqual({ code: 0, output: "No mails" })
    expect(await admin("mail:list", "--status", "failed")).toEqual({ code: 0, output: "No failed mails" })
    const bad = await admin("mail:list", "--status", "bounced")
    expect(bad.code).toBe(2)
    expect(bad.output).toContain('--status must be one of pending, sent, failed (got "bounced")')
    expect((await admin("mail:list", "--limit", "0")).code).toBe(2)
  })

  it("queues one failed mail again with a fresh round of attempts, due now", async () => {
    const failed = await mail("bob@example.com", "failed", "connection refused")
    const { code, output } = await admin("mail:retry", "--id", String(failed))
    expect(code).toBe(0)
    expect(output).toContain(`Queued mail #${failed} to bob@example.com again`)
    expect(await findOutboxMail(db(), failed)).toMatchObject({
      status: "pending",
      attempts: 0,
      last_error: null,
      next_attempt_at: new Date(NOW).toISOString()
    })
  })

  it("queues every failed mail again with --all-failed, and leaves the others alone", async () => {
    const first = await mail("a@example.com", "failed")
    const sent = await mail("b@example.com", "sent")
    const second = await mail("c@example.com", "failed")
    expect(await admin("mail:retry", "--all-failed")).toEqual({ code: 0, output: `Queued 2 mails again: #${first}, #${second}` })
    expect((await findOutboxMail(db(), sent))?.status).toBe("sent")
    expect(await admin("mail:retry", "--all-failed")).toEqual({ code: 0, output: "No failed mails to retry" })
  })

  it("refuses a mail that is not failed, unknown, or whose body is gone, with exit 1", async () => {
    const sent = await mail("b@example.com", "sent")
    expect(await admin("mail:retry", "--id", String(sent))).toMatchObject({
      code: 1,
      output: `mail:retry: Mail #${sent} is sent; only failed mails are retried`
    })
    expect(await admin("mail:retry", "--id", "999")).toMatchObject({ code: 1, output: expect.stringContaining("No mail with id 999") })
    const old = await enqueueMail(
      db(),
      ticketReplyMail({ ...SITE, to: "d@example.com", ticketSubject: "Your ticket", message: "Hi" }),
      new Date(NOW)
    )
    await db()
      .updateTable("outbox")
      .set({ status: "failed", text_body: ABANDONED_BODY, html_body: ABANDONED_BODY })
      .where("id", "=", old)
      .execute()
    expect(await admin("mail:retry", "--id", String(old))).toMatchObject({ code: 1, output: expect.stringContaining("too old to retry") })
    expect(await admin("mail:retry", "--all-failed")).toEqual({ code: 0, output: "No failed mails to retry" })
    expect((await findOutboxMail(db(), old))?.status).toBe("failed")
  })

  it("needs exactly one of --id or --all-failed, and is listed in --help", async () => {
    for (const argv of [[], ["--id", "1", "--all-failed"]]) {
      const { code, output } = await admin("mail:retry", ...argv)
      expect(code).toBe(2)
      expect(output).toContain("give exactly one of --id N or --all-failed")
    }
    expect((await admin("mail:retry", "--id", "x")).code).toBe(2)
    const help = (await admin("--help")).output
    expect(help).toContain("mail:list [--status failed|pending|sent] [--limit N]")
    expect(help).toContain("mail:retry --id N | --all-failed")
  })
})
