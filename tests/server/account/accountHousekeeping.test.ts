import { randomBytes } from "node:crypto"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { pruneAccounts } from "../../../src/server/account/accountHousekeeping.ts"
import { insertSession } from "../../../src/server/account/sessionsRepo.ts"
import type { MailKind, MailStatus } from "../../../src/server/db/schema.ts"
import { ABANDONED_BODY, findOutboxMail, insertOutboxMail } from "../../../src/server/mail/outboxRepo.ts"
import { HOUR, mailedToken, register } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

const DAY = 24 * HOUR
const MINUTE = 60 * 1000

describe.each(dialects)("account housekeeping ($name)", (dialect) => {
  let server: TestServer
  beforeEach(async () => {
    server = await startTestServer(dialect)
  })
  afterEach(() => server.dispose())

  const prune = () => pruneAccounts(server.db.kysely, server.clock)
  const iso = (ms: number) => new Date(ms).toISOString()
  const sessionCount = async () =>
    Number(
      (
        await server.db.kysely
          .selectFrom("sessions")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n
    )

  /** A mail as the worker would have left it, created `ageMs` before the server's now. */
  const mail = async (kind: MailKind, status: MailStatus, ageMs: number) => {
    const row = await insertOutboxMail(server.db.kysely, {
      to_address: `${kind}-${status}-${ageMs}@example.com`,
      subject: `a ${kind} mail`,
      text_body: "http://localhost:8080/verify?token=abc",
      html_body: '<a href="http://localhost:8080/verify?token=abc">link</a>',
      kind,
      created_at: iso(server.clock - ageMs)
    })
    await server.db.kysely.updateTable("outbox").set({ status }).where("id", "=", row.id).execute()
    return row.id
  }

  it("deletes expired sessions and keeps live ones", async () => {
    const user = await server.addUser()
    const [live, expired] = [await server.signIn(user.email), await server.signIn(user.email)]
    await server.db.kysely
      .updateTable("sessions")
      .set({ expires_at: iso(server.clock - 1) })
      .where("id", "=", (await server.db.kysely.selectFrom("sessions").select("id").orderBy("id", "desc").executeTakeFirstOrThrow()).id)
      .execute()
    expect(await prune()).toMatchObject({ sessions: 1 })
    expect(await sessionCount()).toBe(1)
    expect((await server.call("isAuthenticated", { token: live })).json()).toEqual({ success: true })
    expect((await server.call("isAuthenticated", { token: expired })).json()).toEqual({ success: false })
  })

  it("keeps an expired verification link answering 25 for seven days, then forgets it", async () => {
    const host = await server.addUser()
    const issuedAt = server.clock
    expect(await register(server, host.invite_token, "late@example.com")).toMatchObject({ success: true })
    const token = await mailedToken(server.db, "late@example.com", "verify")
    const verify = async () => (await server.call("verifyEmail", { body: { token } })).json() as { resultCode: number }

    server.clock = issuedAt + DAY + 7 * DAY - MINUTE
    expect(await prune()).toMatchObject({ tokens: 0 })
    expect(await verify()).toMatchObject({ resultCode: 25 })

    server.clock = issuedAt + DAY + 7 * DAY
    expect(await prune()).toMatchObject({ tokens: 1 })
    expect(await verify()).toMatchObject({ resultCode: 2 })
  })

  it("keeps an expired reset link answering 21 for seven days, then forgets it", async () => {
    const user = await server.addUser()
    const issuedAt = server.clock
    await server.call("createPasswordReset", { body: { email: user.email } })
    const token = await mailedToken(server.db, user.email, "reset")
    const check = async () => (await server.call("verifyPasswordReset", { body: { token } })).json() as { resultCode: number }

    server.clock = issuedAt + HOUR + 6 * DAY
    await prune()
    expect(await check()).toMatchObject({ resultCode: 21 })
    server.clock = issuedAt + HOUR + 7 * DAY + 1
    await prune()
    expect(await check()).toMatchObject({ resultCode: 20 })
  })

  it("deletes sent and failed mails after thirty days and never a pending one", async () => {
    const ids = {
      oldSent: await mail("verify", "sent", 30 * DAY),
      oldFailed: await mail("ticket-reply", "failed", 31 * DAY),
      oldPending: await mail("verify", "pending", 40 * DAY),
      recentSent: await mail("reset", "sent", 29 * DAY),
      recentFailed: await mail("ticket-reply", "failed", 29 * DAY)
    }
    expect(await prune()).toMatchObject({ mails: 2 })
    const left = await server.db.kysely.selectFrom("outbox").select("id").orderBy("id").execute()
    expect(left.map((row) => row.id)).toEqual([ids.oldPending, ids.recentSent, ids.recentFailed])
  })

  it("clears a failed mail's body once its link has expired, and only a link-carrying one", async () => {
    const reset = await mail("reset", "failed", HOUR - MINUTE)
    const verify = await mail("verify", "failed", DAY - MINUTE)
    const reply = await mail("ticket-reply", "failed", 20 * DAY)
    const pending = await mail("reset", "pending", 2 * HOUR)
    expect(await prune()).toMatchObject({ redactedMails: 0 })

    server.clock += MINUTE
    expect(await prune()).toMatchObject({ redactedMails: 2 })
    for (const id of [reset, verify]) {
      expect(await findOutboxMail(server.db.kysely, id)).toMatchObject({
        status: "failed",
        subject: expect.stringMatching(/mail$/),
        text_body: ABANDONED_BODY,
        html_body: ABANDONED_BODY
      })
    }
    for (const id of [reply, pending]) expect((await findOutboxMail(server.db.kysely, id))?.text_body).toContain("token=abc")
    expect(await prune()).toMatchObject({ redactedMails: 0 })
  })
})

describe.each(dialects)("account housekeeping timer ($name)", (dialect) => {
  it("runs from the app's start until it closes", async () => {
    const server = await startTestServer(dialect, { housekeeping: { firstAfterMs: 0, everyMs: 20 } })
    const expiredSession = async () => {
      const user = await server.addUser()
      await insertSession(server.db.kysely, {
        user_id: user.id,
        token_hash: randomBytes(16).toString("hex"),
        expires_at: new Date(server.clock - 1).toISOString()
      })
      return user.id
    }
    const sessionsOf = async (userId: number) =>
      (await server.db.kysely.selectFrom("sessions").select("id").where("user_id", "=", userId).execute()).length
    try {
      const first = await expiredSession()
      await expect.poll(() => sessionsOf(first)).toBe(0)
      await server.app.close()
      const second = await expiredSession()
      await new Promise((resolve) => setTimeout(resolve, 150))
      expect(await sessionsOf(second)).toBe(1)
    } finally {
      await server.dispose()
    }
  })
})
