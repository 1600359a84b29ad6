import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HOUR, lastMail, login, mailCount, mailedToken } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, startTestServer, type TestServer } from "../../support/testServer.ts"

const SAME_ANSWER = {
  success: true,
  detail: "If this email address has an account that still needs verifying, we have sent it a new verification link."
}

describe.each(dialects)("sending the verification email again ($name)", (dialect) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  const resend = async (email: string, ip = nextIp()) => {
    const response = await server.call("resendVerification", { body: { email }, ip })
    return { status: response.statusCode, body: response.json() as unknown }
  }

  it("mails an unverified account a fresh link that verifies it", async () => {
    await server.addUser({ email: "pending@example.com", verified: false })
    expect((await login(server, "pending@example.com")).resultCode).toBe(13)
    expect(await resend("Pending@Example.com")).toEqual({ status: 200, body: SAME_ANSWER })
    const mail = await lastMail(server.db, "pending@example.com", "verify")
    expect(mail?.subject).toBe("Confirm your email address for StreamHub")
    expect(mail?.text_body).toContain("http://localhost:8080/verify?token=")
    const token = await mailedToken(server.db, "pending@example.com", "verify")
    expect((await server.call("verifyEmail", { body: { token } })).json()).toMatchObject({ success: true, resultCode: 1 })
    expect((await login(server, "pending@example.com")).success).toBe(true)
  })

  it("answers alike for unknown, verified and deactivated addresses, and mails none of them", async () => {
    await server.addUser({ email: "verified@example.com" })
    await server.addUser({ email: "off@example.com", verified: false, active: false })
    const before = await mailCount(server.db)
    for (const email of ["nobody@example.com", "verified@example.com", "off@example.com"]) {
      expect(await resend(email)).toEqual({ status: 200, body: SAME_ANSWER })
    }
    expect(await mailCount(server.db)).toBe(before)
  })

  it("mails one address at most three times an hour from all networks, and refuses alike whether or not it has an account", async () => {
    await server.addUser({ email: "often@example.com", verified: false })
    const refusals: unknown[] = []
    for (const email of ["often@example.com", "ghost@example.com"]) {
      for (let i = 0; i < 3; i += 1) expect((await resend(email)).status).toBe(200)
      const refused = await resend(email)
      expect(refused.status).toBe(429)
      refusals.push(refused.body)
    }
    expect(refusals[0]).toEqual(refusals[1])
    expect(refusals[0]).toMatchObject({
      success: false,
      status: 429,
      detail: expect.stringMatching(/^Too many verification emails asked for this email address\. Try again in \d+ minutes\.$/)
    })
    expect(await mailCount(server.db, "often@example.com")).toBe(3)
    server.clock += HOUR
    expect(await resend("often@example.com")).toEqual({ status: 200, body: SAME_ANSWER })
    expect(await mailCount(server.db, "often@example.com")).toBe(4)
  })
})
