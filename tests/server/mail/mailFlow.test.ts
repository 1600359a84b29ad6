import { randomBytes } from "node:crypto"
import type { FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, type EndpointName } from "../../../src/domain/contract/api.ts"
import { buildPath } from "../../../src/domain/contract/endpoint.ts"
import { hashPassword } from "../../../src/server/account/passwords.ts"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { buildApp } from "../../../src/server/app.ts"
import { loadConfig } from "../../../src/server/config.ts"
import { type MailWorker, startMailWorker } from "../../../src/server/mail/mailWorker.ts"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { DELIVERED_BODY } from "../../../src/server/mail/outboxRepo.ts"
import { createTransport, type MailLogger, type MailTransport } from "../../../src/server/mail/transports.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { type ReceivedMail, type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"
import { expectContractShape, nextIp, PASSWORD } from "../../support/testServer.ts"

// The whole path a person takes, with nothing faked: the app enqueues, the real worker (woken by
// the app, never by its poll) delivers over SMTP to a real server, and the test follows the link
// in the mail it received, as someone clicking it would.

const PUBLIC_URL = "https://tv.example.test"
const NEW_PASSWORD = "my new password"
const quiet: MailLogger = { info: () => undefined, warn: () => undefined, error: () => undefined }

describe.each(dialects)("account mail over SMTP ($name)", (dialect) => {
  let database: TestDatabase
  let peer: SmtpPeer
  let transport: MailTransport
  let worker: MailWorker
  let app: FastifyInstance
  let inviteToken: string

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
    // An hour between polls: every mail that arrives in time was sent because the app woke the worker.
    worker = startMailWorker({ db: database.db.kysely, transport, logger: quiet, pollMs: 60 * 60 * 1000 })
    app = await buildApp({ config, db: database.db, mail: worker })
    const host = await insertUser(database.db.kysely, {
      username: "host",
      email: "host@example.com",
      password_hash: await hashPassword(PASSWORD),
      invite_token: randomBytes(16).toString("base64url"),
      email_verified_at: new Date().toISOString()
    })
    inviteToken = host.invite_token
  })
  afterAll(async () => {
    await app.close()
    await worker.stop()
    transport.close()
    await peer.stop()
    await database.dispose()
  })

  const call = async (name: EndpointName, options: { body?: object; params?: Record<string, string>; token?: string } = {}) => {
    const endpoint = api[name]
    const response = await app.inject({
      method: endpoint.method,
      url: buildPath(endpoint.path, options.params),
      remoteAddress: nextIp(),
      headers: options.token === undefined ? {} : { token: options.token },
      ...(options.body === undefined ? {} : { payload: options.body })
    })
    expectContractShape(name, response)
    return response.json() as Record<string, unknown>
  }
  const login = (email: string, password: string) => call("login", { body: { email, password } })
  const mailTo = (to: string, subject: RegExp) => peer.waitForMessage((m) => m.to === to && subject.test(m.subject))

  /** The token of the link in a mail, after checking the link leads to `page` on the public site. */
  const followLink = (mail: ReceivedMail, page: string): string => {
    const link = new URL(firstLink(mail.text) ?? "")
    expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}${page}`)
    expect(mail.html).toContain(link.href.replace(/&/g, "&amp;"))
    return link.searchParams.get("token") ?? ""
  }

  it("registers, mails the verification link, and signs in once it is followed", async () => {
    expect(await call("invitation", { params: { token: inviteToken } })).toMatchObject({ resultCode: 1 })
    expect(
      await call("register", {
        body: { username: "newcomer", email: "Newcomer@Example.com", password: PASSWORD, invitationToken: inviteToken }
      })
    ).toMatchObject({ success: true, resultCode: 1 })
    expect(await login("newcomer@example.com", PASSWORD)).toMatchObject({ resultCode: 13 })

    const mail = await mailTo("newcomer@example.com", /^Confirm your email address/)
    expect(mail.raw).toMatch(/^From: Kickoff <no-reply@tv\.example\.test>/m)
    const token = followLink(mail, "/verify")
    expect(await call("verifyEmail", { body: { token } })).toMatchObject({ success: true, resultCode: 1 })
    expect(await login("newcomer@example.com", PASSWORD)).toMatchObject({ success: true, resultCode: 1 })
  })

  it("mails a reset link for a registered address, nothing for an unknown one, and the link sets the password", async () => {
    expect(await call("createPasswordReset", { body: { email: "nobody@example.com" } })).toEqual(
      await call("createPasswordReset", { body: { email: "newcomer@example.com" } })
    )
    const mail = await mailTo("newcomer@example.com", /^Reset your .* password$/)
    const token = followLink(mail, "/password-reset-confirmation")
    expect(await call("verifyPasswordReset", { body: { token } })).toMatchObject({ resultCode: 1, email: "newcomer@example.com" })
    expect(await call("resetPassword", { body: { token, newPassword: NEW_PASSWORD } })).toMatchObject({ success: true, resultCode: 1 })
    expect(await login("newcomer@example.com", PASSWORD)).toMatchObject({ resultCode: 12 })
    expect(await login("newcomer@example.com", NEW_PASSWORD)).toMatchObject({ resultCode: 1 })

    await worker.drain()
    expect(peer.messages.filter((m) => m.to === "nobody@example.com")).toEqual([])
  })

  it("confirms an email change from the new mailbox and tells the old one", async () => {
    const session = (await login("newcomer@example.com", NEW_PASSWORD)).token as string
    expect(
      await call("updateUsernameAndEmail", {
        token: session,
        body: { username: "newcomer", email: "elsewhere@example.com", password: NEW_PASSWORD }
      })
    ).toMatchObject({ success: true, resultCode: 1, emailUpdatePending: true, usernameUpdated: false })

    const notice = await mailTo("newcomer@example.com", /email address is being changed$/)
    expect(notice.text).toContain("e*******e@example.com")
    expect(firstLink(notice.text)).toBeUndefined()
    const token = followLink(await mailTo("elsewhere@example.com", /^Confirm your new email address/), "/confirm-email-change")
    expect(await login("elsewhere@example.com", NEW_PASSWORD)).toMatchObject({ resultCode: 12 })

    expect(await call("confirmEmailChange", { body: { email_token: token } })).toMatchObject({
      success: true,
      resultCode: 1,
      email: "elsewhere@example.com"
    })
    expect(await login("elsewhere@example.com", NEW_PASSWORD)).toMatchObject({ success: true, resultCode: 1 })
    expect(await login("newcomer@example.com", NEW_PASSWORD)).toMatchObject({ resultCode: 12 })
  })

  it("gave the inviter a point for the verified newcomer", async () => {
    const session = (await login("host@example.com", PASSWORD)).token as string
    expect(await call("rewardPoints", { token: session })).toMatchObject({ rewardPoints: 1 })
    const invites = (await call("invitations", { token: session })) as { data: Array<{ newUserEmail: string; rewardGiven: string | null }> }
    expect(invites.data).toEqual([expect.objectContaining({ newUserEmail: "newcomer@example.com", rewardGiven: expect.any(String) })])
  })

  it("keeps no link of a delivered mail in the outbox, only who it went to and what it was", async () => {
    await worker.drain()
    const rows = await database.db.kysely.selectFrom("outbox").selectAll().orderBy("id").execute()
    expect(rows.map((row) => [row.kind, row.to_address, row.status])).toEqual([
      ["verify", "newcomer@example.com", "sent"],
      ["reset", "newcomer@example.com", "sent"],
      ["email-change", "elsewhere@example.com", "sent"],
      ["email-change-notice", "newcomer@example.com", "sent"]
    ])
    for (const row of rows) {
      expect(row.subject).not.toBe("")
      expect([row.text_body, row.html_body]).toEqual([DELIVERED_BODY, DELIVERED_BODY])
    }
    expect(JSON.stringify(rows)).not.toMatch(/token=/)
  })
})
