import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashToken } from "../../../src/server/account/oneTimeTokens.ts"
import { verifyPassword } from "../../../src/server/account/passwords.ts"
import {
  accountTableCounts,
  HOUR,
  lastMail,
  login,
  mailCount,
  mailedToken,
  register,
  rewardPointsOf,
  userRow
} from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, startTestServer, type TestServer } from "../../support/testServer.ts"

const SAME_ANSWER = { success: true, detail: "If the email is registered, reset instructions will be sent." }
const INVALID = {
  success: false,
  resultCode: 20,
  detail: "This password reset link is not valid. Request a new one from the Forgot password page."
}
const EXPIRED = {
  success: false,
  resultCode: 21,
  detail: "This password reset link has expired. Request a new one from the Forgot password page."
}
const USED = {
  success: false,
  resultCode: 23,
  detail: "This password reset link has already been used. Request a new one from the Forgot password page."
}
const NEW_PASSWORD = "a brand new password"

describe.each(dialects)("password reset ($name)", (dialect) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  const forgot = async (email: string, ip = nextIp()) => {
    const response = await server.call("createPasswordReset", { body: { email }, ip })
    return { status: response.statusCode, body: response.json() as unknown }
  }
  const resetTokenFor = async (email: string) => {
    expect(await forgot(email)).toEqual({ status: 200, body: SAME_ANSWER })
    return mailedToken(server.db, email, "reset")
  }

  describe("asking for a reset", () => {
    it("answers alike for a registered and an unknown address, mailing only the registered one", async () => {
      await server.addUser({ email: "known@example.com" })
      const known = await forgot("Known@Example.com")
      const unknown = await forgot("unknown@example.com")
      expect(known).toEqual({ status: 200, body: SAME_ANSWER })
      expect(unknown).toEqual(known)
      expect(await mailCount(server.db, "known@example.com")).toBe(1)
      expect(await mailCount(server.db, "unknown@example.com")).toBe(0)
      const mail = await lastMail(server.db, "known@example.com", "reset")
      expect(mail?.subject).toBe("Reset your StreamHub password")
      expect(mail?.text_body).toContain("http://localhost:8080/password-reset-confirmation?token=")
    })

    it("mails no deactivated account", async () => {
      await server.addUser({ email: "disabled@example.com", active: false })
      expect(await forgot("disabled@example.com")).toEqual({ status: 200, body: SAME_ANSWER })
      expect(await mailCount(server.db, "disabled@example.com")).toBe(0)
    })

    it("issues a one-hour token and lets a newer one supersede it", async () => {
      await server.addUser({ email: "twice@example.com" })
      const first = await resetTokenFor("twice@example.com")
      const stored = await server.db.kysely
        .selectFrom("one_time_tokens")
        .selectAll()
        .where("token_hash", "=", hashToken(first))
        .executeTakeFirst()
      expect(stored).toMatchObject({ purpose: "reset", used_at: null })
      expect(Date.parse(stored?.expires_at ?? "") - server.clock).toBe(HOUR)
      const second = await resetTokenFor("twice@example.com")
      expect(second).not.toBe(first)
      expect((await server.call("verifyPasswordReset", { body: { token: first } })).json()).toEqual(INVALID)
      expect((await server.call("verifyPasswordReset", { body: { token: second } })).json()).toMatchObject({ resultCode: 1 })
    })

    it("answers the fourth request for one address from one network within an hour with 429, alike whether it is registered", async () => {
      await server.addUser({ email: "flooded@example.com" })
      const refusals: Array<{ status: number; body: unknown; retryAfter: unknown }> = []
      for (const email of ["flooded@example.com", "nobody-flooded@example.com"]) {
        const ip = nextIp()
        for (let i = 0; i < 3; i += 1) expect(await forgot(email, ip)).toEqual({ status: 200, body: SAME_ANSWER })
        server.clock += 10 * 60 * 1000
        const refused = await server.call("createPasswordReset", { body: { email: email.toUpperCase() }, ip })
        refusals.push({ status: refused.statusCode, body: refused.json(), retryAfter: refused.headers["retry-after"] })
        server.clock -= 10 * 60 * 1000
      }
      expect(refusals[0]).toEqual({
        status: 429,
        body: { success: false, status: 429, detail: "Too many password reset requests for this email address. Try again in 50 minutes." },
        retryAfter: "3000"
      })
      expect(refusals[1]).toEqual(refusals[0])
      expect(await mailCount(server.db, "flooded@example.com")).toBe(3)
      const start = server.clock
      try {
        // Refused requests are not counted, so the window closes an hour after the first one.
        server.clock = start + HOUR + 1
        expect(await forgot("flooded@example.com")).toEqual({ status: 200, body: SAME_ANSWER })
        expect(await mailCount(server.db, "flooded@example.com")).toBe(4)
      } finally {
        server.clock = start
      }
    })

    it("never refuses the owner's network because strangers' networks asked for the address", async () => {
      await server.addUser({ email: "targeted@example.com" })
      for (let i = 0; i < 3; i += 1) expect(await forgot("targeted@example.com", "10.77.0.1")).toMatchObject({ status: 200 })
      expect((await forgot("targeted@example.com", "10.77.0.1")).status).toBe(429)
      // the owner, elsewhere
      expect(await forgot("targeted@example.com", "10.78.0.1")).toEqual({ status: 200, body: SAME_ANSWER })
      expect(await mailCount(server.db, "targeted@example.com")).toBe(4)
    })

    it("mails one address at most ten times an hour from networks it does not know, and always from its own", async () => {
      await server.addUser({ email: "bombed@example.com" })
      await server.signIn("bombed@example.com", undefined, "10.79.0.1")
      for (let i = 0; i < 12; i += 1) expect(await forgot("bombed@example.com", `10.80.${i}.1`)).toEqual({ status: 200, body: SAME_ANSWER })
      expect(await mailCount(server.db, "bombed@example.com")).toBe(10)
      // the network the account signs in from is still mailed
      expect(await forgot("bombed@example.com", "10.79.0.1")).toEqual({ status: 200, body: SAME_ANSWER })
      expect(await mailCount(server.db, "bombed@example.com")).toBe(11)
    })

    it("keeps only a hash of the address asked for, and only for the hour that counts", async () => {
      await forgot("private@example.com")
      const stored = JSON.stringify(await server.db.kysely.selectFrom("password_reset_requests").selectAll().execute())
      expect(stored).not.toContain("private@example.com")
      const start = server.clock
      try {
        // Past every request the tests before this one made, the latest an hour after the start.
        server.clock = start + 3 * HOUR
        await forgot("someone-else@example.com")
        const left = await server.db.kysely.selectFrom("password_reset_requests").selectAll().execute()
        expect(left.map((row) => row.created_at)).toEqual([new Date(server.clock).toISOString()])
      } finally {
        server.clock = start
      }
    })

    it.each([
      [{}, "email: Missing key"],
      [{ email: "not-an-email" }, "email: Enter a valid email address."]
    ])("refuses %j with 400 resultCode 19", async (body, detail) => {
      const before = await accountTableCounts(server.db)
      const response = await server.call("createPasswordReset", { body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
      expect(await accountTableCounts(server.db)).toEqual(before)
    })
  })

  describe("checking and using a reset link", () => {
    it("answers the account's email for a live link without using it up", async () => {
      await server.addUser({ email: "check@example.com" })
      const token = await resetTokenFor("check@example.com")
      const valid = { success: true, resultCode: 1, email: "check@example.com", detail: "This password reset link is valid." }
      expect((await server.call("verifyPasswordReset", { body: { token } })).json()).toEqual(valid)
      expect((await server.call("verifyPasswordReset", { body: { token } })).json()).toEqual(valid)
    })

    it("sets the password, ends every session, and refuses the link afterwards with 23", async () => {
      const user = await server.addUser({ email: "reset@example.com" })
      const sessions = [await server.signIn(user.email), await server.signIn(user.email)]
      const token = await resetTokenFor(user.email)
      expect((await server.call("resetPassword", { body: { token, newPassword: NEW_PASSWORD } })).json()).toEqual({
        success: true,
        resultCode: 1,
        detail: "Password has been updated. You can sign in with your new password."
      })
      for (const session of sessions) expect((await server.call("isAuthenticated", { token: session })).json()).toEqual({ success: false })
      expect(await verifyPassword(NEW_PASSWORD, (await userRow(server.db, user.email))?.password_hash ?? "")).toBe(true)
      expect(await login(server, user.email)).toMatchObject({ resultCode: 12 })
      expect(await login(server, user.email, NEW_PASSWORD)).toMatchObject({ success: true, resultCode: 1 })

      expect((await server.call("verifyPasswordReset", { body: { token } })).json()).toEqual(USED)
      expect((await server.call("resetPassword", { body: { token, newPassword: "yet another one" } })).json()).toEqual(USED)
      expect(await login(server, user.email, NEW_PASSWORD)).toMatchObject({ resultCode: 1 })
    })

    it("answers 21 once the hour is over and 20 for an unknown link, changing nothing", async () => {
      const user = await server.addUser({ email: "slow@example.com" })
      const token = await resetTokenFor(user.email)
      const start = server.clock
      try {
        server.clock = start + HOUR
        expect((await server.call("verifyPasswordReset", { body: { token } })).json()).toEqual(EXPIRED)
        expect((await server.call("resetPassword", { body: { token, newPassword: NEW_PASSWORD } })).json()).toEqual(EXPIRED)
      } finally {
        server.clock = start
      }
      const unknown = "u".repeat(43)
      expect((await server.call("verifyPasswordReset", { body: { token: unknown } })).json()).toEqual(INVALID)
      expect((await server.call("resetPassword", { body: { token: unknown, newPassword: NEW_PASSWORD } })).json()).toEqual(INVALID)
      expect((await userRow(server.db, user.email))?.password_hash).toBe(user.password_hash)
    })

    it("verifies an unverified account, since the link proves the mailbox, and rewards its inviter", async () => {
      const host = await server.addUser({ email: "reset-host@example.com" })
      await register(server, host.invite_token, "never-verified@example.com")
      const token = await resetTokenFor("never-verified@example.com")
      expect((await server.call("resetPassword", { body: { token, newPassword: NEW_PASSWORD } })).json()).toMatchObject({ resultCode: 1 })
      expect(await login(server, "never-verified@example.com", NEW_PASSWORD)).toMatchObject({ success: true })
      expect(await rewardPointsOf(server.db, host.email)).toBe(1)
      // The verification link, followed afterwards, agrees the account is verified and rewards nobody twice.
      const verify = await mailedToken(server.db, "never-verified@example.com", "verify")
      expect((await server.call("verifyEmail", { body: { token: verify } })).json()).toEqual({
        success: true,
        resultCode: 1,
        detail: "Your email address is already verified. You can sign in."
      })
      expect(await rewardPointsOf(server.db, host.email)).toBe(1)
    })

    it.each([
      [{ token: "t" }, "newPassword: Missing key"],
      [{ token: "t", newPassword: "short" }, "newPassword: Password length too short"],
      [{ newPassword: NEW_PASSWORD }, "token: Missing key"]
    ])("refuses resetPassword %j with 400 resultCode 19", async (body, detail) => {
      const before = await accountTableCounts(server.db)
      const response = await server.call("resetPassword", { body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
      expect(await accountTableCounts(server.db)).toEqual(before)
    })

    it("refuses verifyPasswordReset without a token with 400 resultCode 19", async () => {
      const response = await server.call("verifyPasswordReset", { body: { token: "" } })
      expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail: "token: Token is required" })
    })
  })
})
