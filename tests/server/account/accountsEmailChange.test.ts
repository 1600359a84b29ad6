import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashToken } from "../../../src/server/account/oneTimeTokens.ts"
import { accountTableCounts, HOUR, lastMail, login, mailCount, mailedToken, userRow } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

const INCORRECT = { success: false, resultCode: 12, detail: "Incorrect password" }

describe.each(dialects)("changing the username and email ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  const update = async (token: string, body: { username: string; email: string; password: string }) =>
    (await server.call("updateUsernameAndEmail", { token, body })).json() as Record<string, unknown>

  it("changes the username at once", async () => {
    const user = await server.addUser({ email: "named@example.com" })
    const token = await server.signIn(user.email)
    expect(await update(token, { username: "  New Name ", email: "NAMED@example.com", password: PASSWORD })).toEqual({
      success: true,
      resultCode: 1,
      emailUpdatePending: false,
      usernameUpdated: true,
      detail: "Username updated."
    })
    expect((await userRow(server.db, user.email))?.username).toBe("New Name")
    expect(await mailCount(server.db, user.email)).toBe(0)
    expect(await update(token, { username: "New Name", email: user.email, password: PASSWORD })).toMatchObject({
      success: true,
      emailUpdatePending: false,
      usernameUpdated: false
    })
  })

  it("tells the signed-in user of a change still waiting for confirmation, until it is withdrawn, confirmed or expired", async () => {
    const user = await server.addUser({ email: "waiting@example.com" })
    const token = await server.signIn(user.email)
    const info = async () => (await server.call("userInfo", { token, body: {} })).json() as { data: Record<string, unknown> }
    expect((await info()).data).not.toHaveProperty("pendingEmail")
    await update(token, { username: user.username, email: "first@example.com", password: PASSWORD })
    await update(token, { username: user.username, email: "second@example.com", password: PASSWORD })
    expect((await info()).data).toMatchObject({ email: "waiting@example.com", pendingEmail: "second@example.com" })
    // the current address again withdraws it
    await update(token, { username: user.username, email: user.email, password: PASSWORD })
    expect((await info()).data).not.toHaveProperty("pendingEmail")
    await update(token, { username: user.username, email: "third@example.com", password: PASSWORD })
    server.clock += 24 * HOUR
    expect((await info()).data).not.toHaveProperty("pendingEmail")
    server.clock -= 24 * HOUR
    const emailToken = await mailedToken(server.db, "third@example.com", "email-change")
    await server.call("confirmEmailChange", { body: { email_token: emailToken } })
    expect((await info()).data).toMatchObject({ email: "third@example.com" })
    expect((await info()).data).not.toHaveProperty("pendingEmail")
  })

  it("keeps the email pending until the new address confirms, noticing the old one", async () => {
    const user = await server.addUser({ email: "mover@example.com" })
    const token = await server.signIn(user.email)
    const answer = await update(token, { username: user.username, email: "Moved@Example.com", password: PASSWORD })
    expect(answer).toEqual({
      success: true,
      resultCode: 1,
      emailUpdatePending: true,
      usernameUpdated: false,
      detail: "We sent a confirmation link to moved@example.com; your email changes once you follow it."
    })
    expect((await userRow(server.db, "mover@example.com"))?.id).toBe(user.id)
    const confirmation = await lastMail(server.db, "moved@example.com", "email-change")
    expect(confirmation?.text_body).toContain("http://localhost:8080/confirm-email-change?token=")
    const notice = await lastMail(server.db, "mover@example.com", "email-change-notice")
    expect(notice?.text_body).toContain("m***d@example.com")
    expect(await login(server, "mover@example.com")).toMatchObject({ resultCode: 1 })

    const emailToken = await mailedToken(server.db, "moved@example.com", "email-change")
    const stored = await server.db.kysely
      .selectFrom("one_time_tokens")
      .selectAll()
      .where("token_hash", "=", hashToken(emailToken))
      .executeTakeFirst()
    expect(stored).toMatchObject({ purpose: "email-change", new_email: "moved@example.com", user_id: user.id })
    expect(Date.parse(stored?.expires_at ?? "") - server.clock).toBe(24 * HOUR)

    expect((await server.call("confirmEmailChange", { body: { email_token: emailToken } })).json()).toEqual({
      success: true,
      resultCode: 1,
      email: "moved@example.com",
      detail: "Your email address has been updated. Use moved@example.com to sign in from now on."
    })
    expect(await login(server, "moved@example.com")).toMatchObject({ resultCode: 1 })
    expect(await login(server, "mover@example.com")).toMatchObject({ resultCode: 12 })
    // The session it was asked from carries on with the new address.
    expect((await server.call("userInfo", { token, body: {} })).json()).toMatchObject({ data: { email: "moved@example.com" } })

    expect((await server.call("confirmEmailChange", { body: { email_token: emailToken } })).json()).toEqual({
      success: false,
      resultCode: 18,
      detail: "This email confirmation link has already been used."
    })
  })

  it("ends the account's other sessions once the new address is confirmed, keeping the one it was asked from and the one confirming it", async () => {
    const user = await server.addUser({ email: "many-devices@example.com" })
    const other = await server.addUser({ email: "bystander@example.com" })
    const [asking, laptop, phone, bystander] = [
      await server.signIn(user.email),
      await server.signIn(user.email),
      await server.signIn(user.email),
      await server.signIn(other.email)
    ]
    await update(asking, { username: user.username, email: "one-device@example.com", password: PASSWORD })
    const alive = async (token: string) => (await server.call("userInfo", { token, body: {} })).statusCode === 200
    // still waiting for confirmation: nothing ends yet
    expect(await Promise.all([asking, laptop, phone].map(alive))).toEqual([true, true, true])
    const emailToken = await mailedToken(server.db, "one-device@example.com", "email-change")
    expect((await server.call("confirmEmailChange", { token: phone, body: { email_token: emailToken } })).json()).toMatchObject({
      resultCode: 1
    })
    expect(await Promise.all([asking, laptop, phone, bystander].map(alive))).toEqual([true, false, true, true])
  })

  it("confirmed from a device signed in to another account, keeps only the session the change was asked from", async () => {
    const user = await server.addUser({ email: "switcher@example.com" })
    const stranger = await server.addUser({ email: "stranger-device@example.com" })
    const [asking, second, strangers] = [
      await server.signIn(user.email),
      await server.signIn(user.email),
      await server.signIn(stranger.email)
    ]
    await update(asking, { username: user.username, email: "switched@example.com", password: PASSWORD })
    const emailToken = await mailedToken(server.db, "switched@example.com", "email-change")
    await server.call("confirmEmailChange", { token: strangers, body: { email_token: emailToken } })
    const alive = async (token: string) => (await server.call("userInfo", { token, body: {} })).statusCode === 200
    expect(await Promise.all([asking, second, strangers].map(alive))).toEqual([true, false, true])
  })

  it("makes a reset link mailed to the old address worthless once the new one is confirmed", async () => {
    const user = await server.addUser({ email: "left-behind@example.com" })
    const token = await server.signIn(user.email)
    await server.call("createPasswordReset", { body: { email: user.email } })
    const reset = await mailedToken(server.db, user.email, "reset")
    await update(token, { username: user.username, email: "arrived@example.com", password: PASSWORD })
    // Still good while the change waits for confirmation: the old address is still the account's.
    expect((await server.call("verifyPasswordReset", { body: { token: reset } })).json()).toMatchObject({ resultCode: 1 })
    const emailToken = await mailedToken(server.db, "arrived@example.com", "email-change")
    expect((await server.call("confirmEmailChange", { body: { email_token: emailToken } })).json()).toMatchObject({ resultCode: 1 })

    const refused = {
      success: false,
      resultCode: 20,
      detail: "This password reset link is not valid. Request a new one from the Forgot password page."
    }
    expect((await server.call("verifyPasswordReset", { body: { token: reset } })).json()).toEqual(refused)
    expect((await server.call("resetPassword", { body: { token: reset, newPassword: "taken over by the old mailbox" } })).json()).toEqual(
      refused
    )
    expect(await login(server, "arrived@example.com")).toMatchObject({ resultCode: 1 })
  })

  it("changes the username and asks to confirm the email in one request", async () => {
    const user = await server.addUser({ email: "both@example.com" })
    const token = await server.signIn(user.email)
    expect(await update(token, { username: "both-new", email: "both-new@example.com", password: PASSWORD })).toMatchObject({
      success: true,
      emailUpdatePending: true,
      usernameUpdated: true,
      detail: "Username updated. We sent a confirmation link to both-new@example.com; your email changes once you follow it."
    })
  })

  it("answers 12 for a wrong password and changes nothing", async () => {
    const user = await server.addUser({ email: "careful@example.com" })
    const token = await server.signIn(user.email)
    const before = await accountTableCounts(server.db)
    expect(await update(token, { username: "other", email: "other@example.com", password: "not my password" })).toEqual({
      ...INCORRECT,
      emailUpdatePending: false,
      usernameUpdated: false
    })
    expect(await accountTableCounts(server.db)).toEqual(before)
    expect(await userRow(server.db, user.email)).toEqual(user)
  })

  it("answers 14 for an address another account has, changing not even the username", async () => {
    const user = await server.addUser({ email: "wants@example.com" })
    await server.addUser({ email: "has@example.com" })
    const token = await server.signIn(user.email)
    const before = await accountTableCounts(server.db)
    expect(await update(token, { username: "renamed", email: "HAS@example.com", password: PASSWORD })).toEqual({
      success: false,
      resultCode: 14,
      emailUpdatePending: false,
      usernameUpdated: false,
      detail: "That email address is already registered to another account."
    })
    expect(await accountTableCounts(server.db)).toEqual(before)
    expect((await userRow(server.db, user.email))?.username).toBe(user.username)
  })

  it("answers 14 on confirmation when the address was taken meanwhile", async () => {
    const user = await server.addUser({ email: "slowpoke@example.com" })
    const token = await server.signIn(user.email)
    await update(token, { username: user.username, email: "contested@example.com", password: PASSWORD })
    const emailToken = await mailedToken(server.db, "contested@example.com", "email-change")
    await server.addUser({ email: "contested@example.com" })
    expect((await server.call("confirmEmailChange", { body: { email_token: emailToken } })).json()).toEqual({
      success: false,
      resultCode: 14,
      detail: "That email address is already registered to another account."
    })
    expect((await userRow(server.db, "slowpoke@example.com"))?.id).toBe(user.id)
  })

  it("answers 25 for an expired link and 2 for an unknown one", async () => {
    const user = await server.addUser({ email: "expiring@example.com" })
    const token = await server.signIn(user.email)
    await update(token, { username: user.username, email: "expired-new@example.com", password: PASSWORD })
    const emailToken = await mailedToken(server.db, "expired-new@example.com", "email-change")
    const start = server.clock
    try {
      server.clock = start + 24 * HOUR
      expect((await server.call("confirmEmailChange", { body: { email_token: emailToken } })).json()).toEqual({
        success: false,
        resultCode: 25,
        detail: "This email confirmation link has expired. Change the email again from your account settings."
      })
    } finally {
      server.clock = start
    }
    expect((await server.call("confirmEmailChange", { body: { email_token: "n".repeat(43) } })).json()).toEqual({
      success: false,
      resultCode: 2,
      detail: "This email confirmation link is not valid. Check that you opened the whole link from the email."
    })
    expect(await userRow(server.db, "expired-new@example.com")).toBeUndefined()
  })

  it("withdraws a pending change when the current address is submitted again", async () => {
    const user = await server.addUser({ email: "stay@example.com" })
    const token = await server.signIn(user.email)
    await update(token, { username: user.username, email: "maybe@example.com", password: PASSWORD })
    const pending = await mailedToken(server.db, "maybe@example.com", "email-change")
    expect(await update(token, { username: user.username, email: "stay@example.com", password: PASSWORD })).toMatchObject({
      success: true,
      emailUpdatePending: false
    })
    expect((await server.call("confirmEmailChange", { body: { email_token: pending } })).json()).toMatchObject({ resultCode: 2 })
    expect(await userRow(server.db, "stay@example.com")).toBeDefined()
  })

  it("lets a newer request supersede an older one", async () => {
    const user = await server.addUser({ email: "indecisive@example.com" })
    const token = await server.signIn(user.email)
    await update(token, { username: user.username, email: "first-choice@example.com", password: PASSWORD })
    const first = await mailedToken(server.db, "first-choice@example.com", "email-change")
    await update(token, { username: user.username, email: "second-choice@example.com", password: PASSWORD })
    expect((await server.call("confirmEmailChange", { body: { email_token: first } })).json()).toMatchObject({ resultCode: 2 })
    const second = await mailedToken(server.db, "second-choice@example.com", "email-change")
    expect((await server.call("confirmEmailChange", { body: { email_token: second } })).json()).toMatchObject({ resultCode: 1 })
  })

  it.each([
    [{ username: "x", email: "x@example.com" }, "password: Missing key"],
    [{ username: "", email: "x@example.com", password: PASSWORD }, "username: Please enter a username."],
    [{ username: "x", email: "nope", password: PASSWORD }, "email: Enter a valid email address."]
  ])("refuses %j with 400 resultCode 19", async (body, detail) => {
    const user = await server.addUser()
    const token = await server.signIn(user.email)
    const before = await accountTableCounts(server.db)
    const response = await server.call("updateUsernameAndEmail", { token, body, ip: nextIp() })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    expect(await accountTableCounts(server.db)).toEqual(before)
  })

  it("refuses confirmEmailChange without a token with 400 resultCode 19", async () => {
    const response = await server.call("confirmEmailChange", { body: { token: "wrong key" } })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ resultCode: 19, detail: "email_token: Missing key" })
  })
})
