import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashToken } from "../../../src/server/account/oneTimeTokens.ts"
import { verifyPassword } from "../../../src/server/account/passwords.ts"
import type { UserRow } from "../../../src/server/db/schema.ts"
import {
  accountTableCounts,
  HOUR,
  lastMail,
  login,
  mailCount,
  mailedToken,
  register,
  registerVerified,
  rewardPointsOf,
  userRow
} from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

describe.each(dialects)("registration and email verification ($name)", (dialect) => {
  let server: TestServer
  let inviter: UserRow

  beforeAll(async () => {
    server = await startTestServer(dialect)
    inviter = await server.addUser({ email: "host@example.com", points: 2 })
  })
  afterAll(() => server.dispose())

  it("creates an unverified account, its invitation, a verify token and the mail in one go", async () => {
    const body = await register(server, inviter.invite_token, "New.Person@Example.com", "a new password")
    expect(body).toEqual({
      success: true,
      resultCode: 1,
      detail: "Account created. We sent an email to new.person@example.com: follow the link in it to finish signing up."
    })
    const user = await userRow(server.db, "new.person@example.com")
    expect(user).toMatchObject({ username: "New.Person", email_verified_at: null, is_staff: false, is_active: true })
    expect(user?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword("a new password", user?.password_hash ?? "")).toBe(true)
    expect(user?.invite_token).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(user?.invite_token).not.toBe(inviter.invite_token)

    const invitation = await server.db.kysely
      .selectFrom("invitations")
      .selectAll()
      .where("new_user_id", "=", user?.id ?? 0)
      .executeTakeFirst()
    expect(invitation).toMatchObject({
      inviter_id: inviter.id,
      new_user_email: "new.person@example.com",
      created_at: new Date(server.clock).toISOString(),
      reward_given: null
    })

    const mail = await lastMail(server.db, "new.person@example.com", "verify")
    expect(mail?.subject).toBe("Confirm your email address for StreamHub")
    const token = await mailedToken(server.db, "new.person@example.com", "verify")
    expect(mail?.text_body).toContain(`http://localhost:8080/verify?token=${token}`)
    const stored = await server.db.kysely
      .selectFrom("one_time_tokens")
      .selectAll()
      .where("token_hash", "=", hashToken(token))
      .executeTakeFirst()
    expect(stored).toMatchObject({ purpose: "verify", user_id: user?.id, used_at: null })
    expect(Date.parse(stored?.expires_at ?? "") - server.clock).toBe(24 * HOUR)
  })

  it("uses the site name from the site settings in the mail", async () => {
    await server.db.kysely
      .insertInto("settings")
      .values({ key: "siteName", value: JSON.stringify("Kickoff TV") })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: JSON.stringify("Kickoff TV") }))
      .execute()
    try {
      await register(server, inviter.invite_token, "named@example.com")
      expect((await lastMail(server.db, "named@example.com", "verify"))?.subject).toBe("Confirm your email address for Kickoff TV")
    } finally {
      await server.db.kysely.deleteFrom("settings").where("key", "=", "siteName").execute()
    }
  })

  it("keeps an unverified account from signing in until the mailed link is followed", async () => {
    await register(server, inviter.invite_token, "pending@example.com")
    expect(await login(server, "pending@example.com")).toEqual({ success: false, resultCode: 13, detail: "Email not verified" })
    const token = await mailedToken(server.db, "pending@example.com", "verify")
    expect((await server.call("verifyEmail", { body: { token } })).json()).toEqual({
      success: true,
      resultCode: 1,
      detail: "Email verified. You can sign in now."
    })
    expect(await login(server, "pending@example.com")).toMatchObject({ success: true, resultCode: 1 })
  })

  it("completes the invitation and gives the inviter one point on verification, once", async () => {
    const before = await rewardPointsOf(server.db, "host@example.com")
    await register(server, inviter.invite_token, "friend@example.com")
    const token = await mailedToken(server.db, "friend@example.com", "verify")
    server.clock += HOUR
    expect((await server.call("verifyEmail", { body: { token } })).json()).toMatchObject({ resultCode: 1 })
    const friend = await userRow(server.db, "friend@example.com")
    expect(friend?.email_verified_at).toBe(new Date(server.clock).toISOString())
    const invitation = await server.db.kysely
      .selectFrom("invitations")
      .selectAll()
      .where("new_user_id", "=", friend?.id ?? 0)
      .executeTakeFirstOrThrow()
    expect(invitation.reward_given).toBe(new Date(server.clock).toISOString())
    expect(await rewardPointsOf(server.db, "host@example.com")).toBe(before + 1)

    expect((await server.call("verifyEmail", { body: { token } })).json()).toEqual({
      success: false,
      resultCode: 18,
      detail: "This verification link has already been used. You can sign in."
    })
    expect(await rewardPointsOf(server.db, "host@example.com")).toBe(before + 1)
  })

  it("answers 25 for an expired link and 2 for an unknown one, verifying nothing", async () => {
    await register(server, inviter.invite_token, "late@example.com")
    const token = await mailedToken(server.db, "late@example.com", "verify")
    const start = server.clock
    server.clock = start + 24 * HOUR
    try {
      expect((await server.call("verifyEmail", { body: { token } })).json()).toEqual({
        success: false,
        resultCode: 25,
        detail: "This verification link has expired. Use Forgot password on the sign-in page: the reset link also verifies your email."
      })
    } finally {
      server.clock = start
    }
    expect((await server.call("verifyEmail", { body: { token: "x".repeat(43) } })).json()).toEqual({
      success: false,
      resultCode: 2,
      detail: "This verification link is not valid. Check that you opened the whole link from the email."
    })
    expect((await userRow(server.db, "late@example.com"))?.email_verified_at).toBeNull()
  })

  it("answers 14 EMAIL_ALREADY_REGISTERED for a taken address in any case, creating nothing", async () => {
    await server.addUser({ email: "taken@example.com" })
    const before = await accountTableCounts(server.db)
    expect(await register(server, inviter.invite_token, "TAKEN@example.com")).toEqual({
      success: false,
      resultCode: 14,
      detail: "EMAIL_ALREADY_REGISTERED"
    })
    expect(await accountTableCounts(server.db)).toEqual(before)
  })

  it("lets one of two simultaneous sign-ups with one address through", async () => {
    const answers = await Promise.all([0, 1, 2].map(() => register(server, inviter.invite_token, "twice@example.com")))
    expect(answers.map((a) => a.resultCode).sort()).toEqual([1, 14, 14])
    expect(await mailCount(server.db, "twice@example.com")).toBe(1)
  })

  it.each([
    ["a malformed invite code", "bad code!", 6, "This invite link is not valid. Check that you copied the whole link."],
    ["an unknown invite code", "A".repeat(22), 7, "This invite link no longer works. Ask the person who invited you for a new one."]
  ])("refuses %s with %i and creates nothing", async (_case, code, resultCode, detail) => {
    const before = await accountTableCounts(server.db)
    expect(await register(server, code, "uninvited@example.com")).toEqual({ success: false, resultCode, detail })
    expect(await accountTableCounts(server.db)).toEqual(before)
  })

  it("refuses the invite code of a deactivated account with 7", async () => {
    const gone = await server.addUser({ active: false })
    expect(await register(server, gone.invite_token, "late-guest@example.com")).toMatchObject({ success: false, resultCode: 7 })
    expect(await userRow(server.db, "late-guest@example.com")).toBeUndefined()
  })

  it.each([
    [{ email: "a@example.com", password: PASSWORD, invitationToken: "x" }, "username: Missing key"],
    [{ username: " ", email: "a@example.com", password: PASSWORD, invitationToken: "x" }, "username: Please enter a username."],
    [{ username: "a", email: "not-an-email", password: PASSWORD, invitationToken: "x" }, "email: Enter a valid email address."],
    [{ username: "a", email: "a@example.com", password: "short", invitationToken: "x" }, "password: Password length too short"],
    [{ username: "a", email: "a@example.com", password: PASSWORD, invitationToken: "" }, "invitationToken: Token is required"]
  ])("refuses register %j with 400 resultCode 19", async (body, detail) => {
    const before = await accountTableCounts(server.db)
    const response = await server.call("register", { body })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    expect(await accountTableCounts(server.db)).toEqual(before)
  })

  it.each([
    [{}, "token: Missing key"],
    [{ token: 42 }, "token: Expected string"],
    [{ token: "t".repeat(513) }, "token: Token is too long"]
  ])("refuses verifyEmail %j with 400 resultCode 19", async (body, detail) => {
    const before = await accountTableCounts(server.db)
    const response = await server.call("verifyEmail", { body })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    expect(await accountTableCounts(server.db)).toEqual(before)
  })

  it("gives the new account an invite link of its own that works", async () => {
    await registerVerified(server, inviter.invite_token, "chain@example.com")
    const chain = await userRow(server.db, "chain@example.com")
    expect(await register(server, chain?.invite_token ?? "", "chain-friend@example.com")).toMatchObject({ resultCode: 1 })
    const invitation = await server.db.kysely
      .selectFrom("invitations")
      .selectAll()
      .where("new_user_email", "=", "chain-friend@example.com")
      .executeTakeFirst()
    expect(invitation?.inviter_id).toBe(chain?.id)
  })
})
