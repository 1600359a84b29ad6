import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyPassword } from "../../../src/server/account/passwords.ts"
import { accountTableCounts, login, mailedToken, userRow } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

const NEW_PASSWORD = "a brand new password"
const INCORRECT = { success: false, resultCode: 12, detail: "Incorrect password" }

describe.each(dialects)("changing the password ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  it("keeps this session, ends the others and takes the new password", async () => {
    const user = await server.addUser({ email: "pw@example.com" })
    const [current, other] = [await server.signIn(user.email), await server.signIn(user.email)]
    const response = await server.call("updatePassword", { token: current, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })
    expect(response.json()).toEqual({ success: true, resultCode: 1, detail: "Password has been updated" })
    expect((await server.call("isAuthenticated", { token: current })).json()).toEqual({ success: true })
    expect((await server.call("isAuthenticated", { token: other })).json()).toEqual({ success: false })
    expect(await login(server, user.email)).toMatchObject({ resultCode: 12 })
    expect(await login(server, user.email, NEW_PASSWORD)).toMatchObject({ resultCode: 1 })
  })

  it("answers 12 for a wrong current password and changes nothing", async () => {
    const user = await server.addUser({ email: "pw-wrong@example.com" })
    const [current, other] = [await server.signIn(user.email), await server.signIn(user.email)]
    const response = await server.call("updatePassword", {
      token: current,
      body: { currentPassword: "not my password", newPassword: NEW_PASSWORD }
    })
    expect(response.json()).toEqual(INCORRECT)
    expect((await userRow(server.db, user.email))?.password_hash).toBe(user.password_hash)
    expect((await server.call("isAuthenticated", { token: other })).json()).toEqual({ success: true })
  })

  it("makes an outstanding reset link worthless", async () => {
    const user = await server.addUser({ email: "pw-reset@example.com" })
    await server.call("createPasswordReset", { body: { email: user.email } })
    const reset = await mailedToken(server.db, user.email, "reset")
    const token = await server.signIn(user.email)
    await server.call("updatePassword", { token, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })
    expect((await server.call("resetPassword", { body: { token: reset, newPassword: "the attacker's one" } })).json()).toMatchObject({
      resultCode: 20
    })
    expect(await verifyPassword(NEW_PASSWORD, (await userRow(server.db, user.email))?.password_hash ?? "")).toBe(true)
  })

  it("counts wrong current passwords from a network like its failed sign-ins", async () => {
    const user = await server.addUser({ email: "pw-guess@example.com" })
    const ip = "10.200.0.1"
    const token = await server.signIn(user.email, PASSWORD, ip)
    for (let i = 0; i < 3; i += 1) {
      const body = { currentPassword: `guess number ${i}`, newPassword: NEW_PASSWORD }
      expect((await server.call("updatePassword", { token, ip, body })).json()).toEqual(INCORRECT)
    }
    const locked = await server.call("updatePassword", { token, ip, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })
    expect(locked.statusCode).toBe(429)
    expect((await userRow(server.db, user.email))?.password_hash).toBe(user.password_hash)
  })

  it.each([
    [{ currentPassword: PASSWORD }, "newPassword: Missing key"],
    [{ currentPassword: PASSWORD, newPassword: "short" }, "newPassword: Password length too short"],
    [{ currentPassword: "short", newPassword: NEW_PASSWORD }, "currentPassword: Password length too short"]
  ])("refuses %j with 400 resultCode 19", async (body, detail) => {
    const user = await server.addUser()
    const token = await server.signIn(user.email)
    const before = await accountTableCounts(server.db)
    const response = await server.call("updatePassword", { token, body })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    expect(await accountTableCounts(server.db)).toEqual(before)
    expect((await userRow(server.db, user.email))?.password_hash).toBe(user.password_hash)
  })

  it("refuses without a session with 403", async () => {
    expect((await server.call("updatePassword", { body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })).statusCode).toBe(403)
  })
})
