import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { EndpointName } from "../../../src/domain/contract/api.ts"
import { accountTableCounts } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { type CallOptions, nextIp, PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

describe.each(dialects)("account rate limits ($name)", (dialect) => {
  let server: TestServer
  let inviteToken: string
  beforeAll(async () => {
    server = await startTestServer(dialect)
    inviteToken = (await server.addUser({ email: "host@example.com" })).invite_token
  })
  afterAll(() => server.dispose())

  /** Statuses of `count` calls from one address, and the last answer. */
  const burst = async (name: EndpointName, count: number, options: (i: number) => CallOptions) => {
    const ip = nextIp()
    const statuses: number[] = []
    let last: { statusCode: number; headers: Record<string, unknown>; json(): unknown } | undefined
    for (let i = 0; i < count; i += 1) {
      last = await server.call(name, { ...options(i), ip })
      statuses.push(last.statusCode)
    }
    return { statuses, last: last!, ip }
  }

  it("allows five sign-ups a minute from one address", async () => {
    const { statuses, last, ip } = await burst("register", 6, (i) => ({
      body: { username: `u${i}`, email: `burst${i}@example.com`, password: PASSWORD, invitationToken: inviteToken }
    }))
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const body = last.json() as { detail: string }
    expect(body).toMatchObject({ success: false, status: 429 })
    expect(body.detail).toMatch(/^Too many sign-up attempts from your network\. Try again in \d+ seconds\.$/)
    expect(Number(last.headers["retry-after"])).toBeGreaterThan(0)
    // Refused before the handler: no account for the sixth.
    const before = await accountTableCounts(server.db)
    await server.call("register", {
      ip,
      body: { username: "late", email: "burst-late@example.com", password: PASSWORD, invitationToken: inviteToken }
    })
    expect(await accountTableCounts(server.db)).toEqual(before)
    // Another address is not affected.
    const other = await server.call("register", {
      body: { username: "o", email: "other-net@example.com", password: PASSWORD, invitationToken: inviteToken }
    })
    expect(other.statusCode).toBe(200)
  })

  it("allows five password reset requests a minute from one address", async () => {
    const { statuses, last } = await burst("createPasswordReset", 6, (i) => ({ body: { email: `reset${i}@example.com` } }))
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    expect((last.json() as { detail: string }).detail).toMatch(
      /^Too many password reset requests from your network\. Try again in \d+ seconds\.$/
    )
  })

  it("allows five verification email requests a minute from one address", async () => {
    const { statuses, last } = await burst("resendVerification", 6, (i) => ({ body: { email: `resend${i}@example.com` } }))
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    expect((last.json() as { detail: string }).detail).toMatch(
      /^Too many verification email requests from your network\. Try again in \d+ seconds\.$/
    )
  })

  it.each([
    ["verifyEmail", { body: { token: "guess" } }],
    ["verifyPasswordReset", { body: { token: "guess" } }],
    ["resetPassword", { body: { token: "guess", newPassword: PASSWORD } }],
    ["confirmEmailChange", { body: { email_token: "guess" } }],
    ["invitation", { params: { token: "guessguessguessguess" } }]
  ] as const)("allows ten %s attempts a minute from one address", async (name, options) => {
    const { statuses, last } = await burst(name, 11, () => options)
    expect(statuses).toEqual([...Array(10).fill(200), 429])
    expect((last.json() as { detail: string }).detail).toMatch(/^Too many attempts from your network\. Try again in \d+ seconds\.$/)
  })

  it("allows five changes of email a minute from one address, and refuses the sixth before anything is mailed", async () => {
    const token = await server.signIn("host@example.com")
    const ip = nextIp()
    const change = (n: number) =>
      server.call("updateUsernameAndEmail", { ip, token, body: { username: "host", email: `target${n}@example.com`, password: PASSWORD } })
    for (let n = 0; n < 5; n += 1) expect((await change(n)).json()).toMatchObject({ success: true, emailUpdatePending: true })
    const mailed = await server.db.kysely
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow()
    const refused = await change(5)
    expect(refused.statusCode).toBe(429)
    expect((refused.json() as { detail: string }).detail).toMatch(
      /^Too many account changes from your network\. Try again in \d+ seconds\.$/
    )
    const after = await server.db.kysely
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow()
    expect(Number(after.count)).toBe(Number(mailed.count))
  })

  it("counts each token endpoint on its own, so checking a link never uses up submitting it", async () => {
    const ip = nextIp()
    for (let i = 0; i < 10; i += 1) await server.call("verifyPasswordReset", { ip, body: { token: "guess" } })
    expect((await server.call("resetPassword", { ip, body: { token: "guess", newPassword: PASSWORD } })).statusCode).toBe(200)
  })
})

describe.each(dialects)("sign-up limits per invite link and per address ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  const signUp = (invitationToken: string, email: string) =>
    server.call("register", { body: { username: email.split("@")[0], email, password: PASSWORD, invitationToken }, ip: nextIp() })

  it("lets ten accounts an hour register through one invite link, then answers 429", async () => {
    const host = await server.addUser({ email: "popular@example.com" })
    for (let i = 0; i < 10; i += 1) {
      expect((await signUp(host.invite_token, `crowd${i}@example.com`)).json()).toMatchObject({ success: true, resultCode: 1 })
    }
    server.clock += 15 * 60 * 1000
    const before = await accountTableCounts(server.db)
    const refused = await signUp(host.invite_token, "crowd-late@example.com")
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      success: false,
      status: 429,
      detail: "Too many accounts were created with this invite link recently. Try again in 45 minutes, or ask for another invite link."
    })
    expect(refused.headers["retry-after"]).toBe("2700")
    expect(await accountTableCounts(server.db)).toEqual(before)

    // Another person's link is not affected, and this one works again once the hour is over.
    const other = await server.addUser({ email: "quiet@example.com" })
    expect((await signUp(other.invite_token, "crowd-elsewhere@example.com")).json()).toMatchObject({ resultCode: 1 })
    server.clock += 45 * 60 * 1000
    expect((await signUp(host.invite_token, "crowd-late@example.com")).json()).toMatchObject({ resultCode: 1 })
  })

  it("allows five sign-up attempts an hour for one address, whatever their outcome, then answers 429", async () => {
    const host = await server.addUser({ email: "prober-host@example.com" })
    await server.addUser({ email: "probed@example.com" })
    for (let i = 0; i < 5; i += 1) {
      expect((await signUp(host.invite_token, i % 2 === 0 ? "probed@example.com" : "Probed@Example.COM")).json()).toMatchObject({
        resultCode: 14
      })
    }
    const refused = await signUp(host.invite_token, "PROBED@example.com")
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toEqual({
      success: false,
      status: 429,
      detail: "Too many sign-up attempts for this email address. Try again in 60 minutes."
    })
    expect(refused.headers["retry-after"]).toBe("3600")
    // Tries with an invite code that does not work do not count: only someone holding a working
    // link can use up an address's tries.
    for (let i = 0; i < 5; i += 1) expect((await signUp("not a code", "free@example.com")).json()).toMatchObject({ resultCode: 6 })
    expect((await signUp(host.invite_token, "free@example.com")).json()).toMatchObject({ resultCode: 1 })
    server.clock += 60 * 60 * 1000
    expect((await signUp(host.invite_token, "probed@example.com")).json()).toMatchObject({ resultCode: 14 })
  })
})
