import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { accountTableCounts, lastMail, login, mailCount, mailedToken, register, userRow } from "../../support/accountsHarness.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

// Only an address a mail server takes is accepted: text before the '@' in ASCII, and an
// internationalised domain kept (and mailed) in its ASCII form, whichever way it was typed.
const REFUSED = { success: false, status: 400, resultCode: 19, detail: "email: Enter a valid email address." }

describe.each(dialects)("email addresses outside ASCII ($name)", (dialect) => {
  let server: TestServer
  let inviter: UserRow

  beforeAll(async () => {
    server = await startTestServer(dialect)
    inviter = await server.addUser({ email: "host@example.com" })
  })
  afterAll(() => server.dispose())

  it("refuses a sign-up whose address has non-ASCII text before the @, creating nothing", async () => {
    const before = await accountTableCounts(server.db)
    const body = { username: "dana.émile", email: "dana.émile@example.com", password: PASSWORD, invitationToken: inviter.invite_token }
    const response = await server.call("register", { body, ip: nextIp() })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual(REFUSED)
    expect(await accountTableCounts(server.db)).toEqual(before)
  })

  it("keeps and mails an internationalised domain in ASCII, and signs in with either spelling", async () => {
    expect(await register(server, inviter.invite_token, "Dana@Bücher.de")).toMatchObject({ success: true, resultCode: 1 })
    expect(await userRow(server.db, "dana@xn--bcher-kva.de")).toMatchObject({ username: "Dana" })
    expect(await userRow(server.db, "dana@bücher.de")).toBeUndefined()
    const token = await mailedToken(server.db, "dana@xn--bcher-kva.de", "verify")
    expect((await server.call("verifyEmail", { body: { token } })).json()).toMatchObject({ resultCode: 1 })
    expect(await login(server, "dana@bücher.de")).toMatchObject({ resultCode: 1 })
    expect(await login(server, "DANA@xn--bcher-kva.de")).toMatchObject({ resultCode: 1 })
    expect(await register(server, inviter.invite_token, "dana@xn--bcher-kva.de")).toMatchObject({ resultCode: 14 })
  })

  it("mails a password reset asked for with the Unicode domain to the ASCII address", async () => {
    await server.addUser({ email: "reset@xn--bcher-kva.de" })
    expect((await server.call("createPasswordReset", { body: { email: "reset@bücher.de" }, ip: nextIp() })).statusCode).toBe(200)
    expect(await mailCount(server.db, "reset@xn--bcher-kva.de")).toBe(1)
    expect(await mailCount(server.db, "reset@bücher.de")).toBe(0)
    const refused = await server.call("createPasswordReset", { body: { email: "rését@example.com" }, ip: nextIp() })
    expect(refused.json()).toEqual(REFUSED)
  })

  it("changes an email to an internationalised domain in ASCII, and refuses a non-ASCII local part", async () => {
    const user = await server.addUser({ email: "mover@example.com" })
    const token = await server.signIn(user.email)
    const update = (email: string) =>
      server.call("updateUsernameAndEmail", { token, body: { username: user.username, email, password: PASSWORD } })
    expect((await update("mover@bücher.de")).json()).toMatchObject({ resultCode: 1, emailUpdatePending: true })
    expect(await lastMail(server.db, "mover@xn--bcher-kva.de", "email-change")).toBeDefined()
    expect((await update("möver@example.com")).json()).toEqual(REFUSED)
  })
})

describe.each(dialects)("user:create with addresses outside ASCII ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("stores an internationalised domain in ASCII and refuses a non-ASCII local part", async () => {
    expect((await cli.admin("user:create", "--email", "Fan@Bücher.de", "--password", "long password")).code).toBe(0)
    expect(await userRow(cli.database.db, "fan@xn--bcher-kva.de")).toMatchObject({ username: "fan" })
    expect(await cli.admin("user:create", "--email", "dana.émile@example.com", "--password", "long password")).toMatchObject({
      code: 2,
      output: expect.stringContaining("--email: Enter a valid email address.")
    })
  })
})
