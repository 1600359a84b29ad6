import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashToken } from "../../../src/server/account/sessions.ts"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { lastMail, mailedToken } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, PASSWORD, startTestServer, type TestServer, tableCounts } from "../../support/testServer.ts"

const DAY = 24 * 60 * 60 * 1000

describe.each(dialects)("auth ($name)", (dialect) => {
  let server: TestServer
  let customer: UserRow
  let staff: UserRow

  beforeAll(async () => {
    server = await startTestServer(dialect)
    customer = await server.addUser({ email: "viewer@example.com", points: 3 })
    staff = await server.addUser({ email: "staff@example.com", staff: true })
  })
  afterAll(() => server.dispose())

  const sessionRows = (userId: number) => server.db.kysely.selectFrom("sessions").selectAll().where("user_id", "=", userId).execute()

  it("refuses an email longer than 254 characters as invalid input on every endpoint that takes one", async () => {
    const long = `${"a".repeat(243)}@example.com`
    expect(long).toHaveLength(255)
    const token = await server.signIn("viewer@example.com")
    const calls = [
      ["login", { email: long, password: PASSWORD }, undefined],
      ["register", { username: "a", email: long, password: PASSWORD, invitationToken: customer.invite_token }, undefined],
      ["createPasswordReset", { email: long }, undefined],
      ["updateUsernameAndEmail", { username: "viewer", email: long, password: PASSWORD }, token]
    ] as const
    for (const [name, body, as] of calls) {
      const before = await tableCounts(server.db)
      const response = await server.call(name, { body, ...(as === undefined ? {} : { token: as }) })
      expect(response.statusCode, name).toBe(400)
      expect(response.json(), name).toEqual({ success: false, status: 400, resultCode: 19, detail: "email: Enter a valid email address." })
      expect(await tableCounts(server.db)).toEqual(before)
    }
  })

  describe("login", () => {
    it("answers a token and stores only its hash, one row per device", async () => {
      const response = await server.call("login", {
        body: { email: "Viewer@Example.com", password: PASSWORD, isMobile: true },
        headers: { "user-agent": "TestPhone/1.0" }
      })
      expect(response.statusCode).toBe(200)
      const body = response.json() as { success: boolean; resultCode: number; token: string }
      expect(body).toMatchObject({ success: true, resultCode: 1 })
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const rows = await server.db.kysely.selectFrom("sessions").selectAll().where("token_hash", "=", hashToken(body.token)).execute()
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ user_id: customer.id, is_mobile: true, user_agent: "TestPhone/1.0" })
      expect(Date.parse(rows[0]?.expires_at ?? "") - server.clock).toBe(30 * DAY)
      const stored = JSON.stringify(await server.db.kysely.selectFrom("sessions").selectAll().execute())
      expect(stored).not.toContain(body.token)
    })

    it.each([
      ["an unknown email", "nobody@example.com", PASSWORD],
      ["a wrong password", "viewer@example.com", "not the password"]
    ])("answers 12 for %s and creates no session", async (_case, email, password) => {
      const before = await tableCounts(server.db)
      const response = await server.call("login", { body: { email, password } })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ success: false, resultCode: 12, detail: "Email and password do not match" })
      expect(await tableCounts(server.db)).toEqual(before)
    })

    it("answers 13 for an unverified account and 15 for an inactive one, only with the right password", async () => {
      await server.addUser({ email: "unverified@example.com", verified: false })
      await server.addUser({ email: "inactive@example.com", active: false })
      const login = async (email: string, password = PASSWORD) => (await server.call("login", { body: { email, password } })).json()
      expect(await login("unverified@example.com")).toEqual({ success: false, resultCode: 13, detail: "Email not verified" })
      expect(await login("inactive@example.com")).toEqual({ success: false, resultCode: 15, detail: "User not active" })
      expect(await login("unverified@example.com", "wrong password")).toMatchObject({ resultCode: 12 })
      expect(await login("inactive@example.com", "wrong password")).toMatchObject({ resultCode: 12 })
    })

    it.each([
      [{ email: "viewer@example.com" }, "password: Missing key"],
      [{ email: "not-an-email", password: PASSWORD }, "email: Enter a valid email address."],
      [{ email: 42, password: PASSWORD }, "email: Expected string"],
      [{ email: "viewer@example.com", password: PASSWORD, isMobile: "yes" }, "isMobile: Expected boolean"],
      [[1, 2], "Expected a JSON object as the request body"]
    ])("refuses %j with 400 resultCode 19", async (body, detail) => {
      const before = await tableCounts(server.db)
      const response = await server.call("login", { body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
      expect(await tableCounts(server.db)).toEqual(before)
    })
  })

  describe("sessions", () => {
    it("isAuthenticated tells a live token from none or a forged one", async () => {
      const token = await server.signIn("viewer@example.com")
      expect((await server.call("isAuthenticated", { token })).json()).toEqual({ success: true })
      expect((await server.call("isAuthenticated")).json()).toEqual({ success: false })
      expect((await server.call("isAuthenticated", { token: "x".repeat(43) })).json()).toEqual({ success: false })
    })

    it("userInfo answers the signed-in account with reward points and their value", async () => {
      const token = await server.signIn("viewer@example.com")
      const response = await server.call("userInfo", { token, body: { isMobile: false } })
      expect(response.json()).toEqual({
        success: true,
        data: { email: "viewer@example.com", username: "viewer", is_staff: false, userRewardPoints: 3, pricePerRewardPoint: 1 }
      })
      const staffToken = await server.signIn("staff@example.com")
      expect((await server.call("userInfo", { token: staffToken, body: {} })).json()).toMatchObject({ data: { is_staff: true } })
    })

    it("refuses protected endpoints without a live session with 403", async () => {
      for (const token of [undefined, "", "garbage", "A".repeat(43)]) {
        const response = await server.call("userInfo", { ...(token === undefined ? {} : { token }), body: {} })
        expect(response.statusCode).toBe(403)
        expect(response.json()).toMatchObject({ success: false, status: 403 })
      }
    })

    it("logout ends only this session", async () => {
      const first = await server.signIn("viewer@example.com")
      const second = await server.signIn("viewer@example.com")
      expect((await server.call("logout", { token: first })).json()).toEqual({ success: true })
      expect((await server.call("userInfo", { token: first, body: {} })).statusCode).toBe(403)
      expect((await server.call("logout", { token: first })).statusCode).toBe(403)
      expect((await server.call("userInfo", { token: second, body: {} })).statusCode).toBe(200)
    })

    it("logoutAll ends every session of the account and no one else's", async () => {
      const tokens = [await server.signIn("viewer@example.com"), await server.signIn("viewer@example.com")]
      const other = await server.signIn("staff@example.com")
      expect((await server.call("logoutAll", { token: tokens[0] })).json()).toEqual({ success: true })
      for (const token of tokens) expect((await server.call("userInfo", { token, body: {} })).statusCode).toBe(403)
      expect(await sessionRows(customer.id)).toHaveLength(0)
      expect((await server.call("userInfo", { token: other, body: {} })).statusCode).toBe(200)
      expect((await sessionRows(staff.id)).length).toBeGreaterThan(0)
    })

    it("slides the 30-day expiry with use and ends an idle session", async () => {
      const start = server.clock
      try {
        const token = await server.signIn("viewer@example.com")
        server.clock = start + 20 * DAY
        expect((await server.call("isAuthenticated", { token })).json()).toEqual({ success: true })
        server.clock = start + 40 * DAY
        expect((await server.call("isAuthenticated", { token })).json()).toEqual({ success: true })
        server.clock = start + 71 * DAY
        expect((await server.call("userInfo", { token, body: {} })).statusCode).toBe(403)
      } finally {
        server.clock = start
      }
    })

    it("ends a session 90 days after its sign-in, however often it is used", async () => {
      const start = server.clock
      try {
        const token = await server.signIn("viewer@example.com")
        for (let day = 25; day < 90; day += 25) {
          server.clock = start + day * DAY
          expect((await server.call("isAuthenticated", { token })).json()).toEqual({ success: true })
        }
        server.clock = start + 89 * DAY
        expect((await server.call("userInfo", { token, body: {} })).statusCode).toBe(200)
        // its expiry never slides past the 90 days
        const [row] = await server.db.kysely
          .selectFrom("sessions")
          .select("expires_at")
          .where("token_hash", "=", hashToken(token))
          .execute()
        expect(Date.parse(row?.expires_at ?? "")).toBe(start + 90 * DAY)
        server.clock = start + 90 * DAY + 1000
        expect((await server.call("userInfo", { token, body: {} })).statusCode).toBe(403)
      } finally {
        server.clock = start
      }
    })

    it("ends the sessions of an account that is deactivated", async () => {
      const user = await server.addUser()
      const token = await server.signIn(user.email)
      await server.db.kysely.updateTable("users").set({ is_active: false }).where("id", "=", user.id).execute()
      expect((await server.call("streams", { token })).statusCode).toBe(403)
    })
  })
})

describe.each(dialects)("wrong passwords from many networks ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect, { limits: { failedSignInsPerAccountAnyNetwork: 6, signInPerMinute: 100 } })
    await server.addUser({ email: "popular@example.com" })
  })
  afterAll(() => server.dispose())

  it("slows a network after its third wrong password and refuses it after its fifth", async () => {
    const ip = nextIp()
    const attempt = (password: string) => server.call("login", { ip, body: { email: "popular@example.com", password } })
    for (let i = 0; i < 3; i += 1) expect((await attempt(`guess-${i}`)).json()).toMatchObject({ resultCode: 12 })
    const paused = await attempt(PASSWORD)
    expect(paused.statusCode).toBe(429)
    expect((paused.json() as { detail: string }).detail).toContain("paused for 5 seconds")
    const start = server.clock
    try {
      server.clock = start + 5_000
      expect((await attempt("guess-3")).json()).toMatchObject({ resultCode: 12 })
      expect((await attempt(PASSWORD)).json()).toMatchObject({ status: 429 })
      server.clock = start + 35_000
      expect((await attempt("guess-4")).json()).toMatchObject({ resultCode: 12 })
      server.clock = start + 10 * 60_000
      expect((await attempt(PASSWORD)).json()).toMatchObject({ status: 429 })
    } finally {
      server.clock = start
    }
  })

  it("clears a network's failed attempts once it signs in, and lifts its pause when the window is over", async () => {
    await server.addUser({ email: "forgetful@example.com" })
    const home = nextIp()
    const attempt = async (password: string) => server.call("login", { ip: home, body: { email: "forgetful@example.com", password } })
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 2; i += 1) expect((await attempt(`typo-${round}-${i}`)).json()).toMatchObject({ resultCode: 12 })
      expect((await attempt(PASSWORD)).json()).toMatchObject({ success: true, resultCode: 1 })
    }
    const start = server.clock
    try {
      // the third and fourth wrong passwords each pause the network; the fifth refuses it for the window
      for (let i = 0; i < 5; i += 1) {
        if (i === 3) server.clock += 5_000
        if (i === 4) server.clock += 30_000
        expect((await attempt(`guess-${i}`)).json()).toMatchObject({ resultCode: 12 })
      }
      expect((await attempt(PASSWORD)).statusCode).toBe(429)
      server.clock = start + 15 * 60 * 1000
      expect((await attempt(PASSWORD)).json()).toMatchObject({ success: true, resultCode: 1 })
    } finally {
      server.clock = start
    }
  })

  it("takes only a limited number of wrong passwords an hour from all networks, and then still hears the owner's known network", async () => {
    await server.addUser({ email: "owner@example.com" })
    const home = nextIp()
    expect((await server.call("login", { ip: home, body: { email: "owner@example.com", password: PASSWORD } })).json()).toMatchObject({
      success: true
    })
    for (let i = 0; i < 6; i += 1) {
      expect(
        (await server.call("login", { ip: nextIp(), body: { email: "owner@example.com", password: `guess-${i}` } })).json()
      ).toMatchObject({ resultCode: 12 })
    }
    const stranger = await server.call("login", { ip: nextIp(), body: { email: "owner@example.com", password: PASSWORD } })
    expect(stranger.statusCode).toBe(429)
    expect((await server.call("login", { ip: home, body: { email: "owner@example.com", password: PASSWORD } })).json()).toMatchObject({
      success: true
    })
  })
})

describe.each(dialects)("the owner on a new network while strangers guess ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect, { limits: { failedSignInsPerAccountAnyNetwork: 6, signInPerMinute: 100 } })
  })
  afterAll(() => server.dispose())

  const links = (email: string) =>
    server.db.kysely.selectFrom("outbox").select("id").where("to_address", "=", email).where("kind", "=", "sign-in-link").execute()
  const guessFromEverywhere = async (email: string) => {
    for (let i = 0; i < 6; i += 1) {
      expect((await server.call("login", { ip: nextIp(), body: { email, password: `guess-${i}` } })).json()).toMatchObject({
        resultCode: 12
      })
    }
  }

  it("answers a right and a wrong password alike, mails a single-use sign-in link for the right one, and following it signs in", async () => {
    const owner = await server.addUser({ email: "traveller@example.com" })
    await guessFromEverywhere(owner.email)
    const hotel = nextIp()
    const right = await server.call("login", { ip: hotel, body: { email: owner.email, password: PASSWORD } })
    const wrong = await server.call("login", { ip: nextIp(), body: { email: owner.email, password: "one more guess" } })
    for (const answer of [right, wrong]) {
      expect(answer.statusCode).toBe(429)
      expect(answer.json()).toEqual({
        success: false,
        status: 429,
        detail:
          "Many wrong passwords were tried for this account from other networks, so for 60 minutes it signs in new networks only by email. " +
          "If the password you entered is right, we have sent you a sign-in link: follow it to sign in."
      })
    }
    await expect.poll(() => links(owner.email)).toHaveLength(1)
    const token = await mailedToken(server.db, owner.email, "sign-in-link")
    expect((await lastMail(server.db, owner.email, "sign-in-link"))?.text_body).toContain(
      `http://localhost:8080/sign-in-link?token=${token}`
    )
    // only its hash is kept
    const stored = await server.db.kysely.selectFrom("sign_in_links").select("token_hash").where("user_id", "=", owner.id).execute()
    expect(stored).toEqual([{ token_hash: hashToken(token) }])

    const signedIn = (await server.call("signInWithLink", { ip: hotel, body: { token } })).json() as { token?: string }
    expect(signedIn).toMatchObject({ success: true, resultCode: 1, token: expect.any(String) })
    expect((await server.call("userInfo", { token: signedIn.token, body: {} })).json()).toMatchObject({ data: { email: owner.email } })
    expect((await server.call("signInWithLink", { ip: hotel, body: { token } })).json()).toEqual({
      success: false,
      resultCode: 18,
      detail: "This sign-in link has already been used. Sign in with your email and password."
    })
    // the network the link was followed from is the owner's now: its password is heard again
    expect((await server.call("login", { ip: hotel, body: { email: owner.email, password: PASSWORD } })).json()).toMatchObject({
      success: true,
      resultCode: 1
    })
    // an account that does not exist, or a wrong password, mails nothing
    expect(await links(owner.email)).toHaveLength(1)
  })

  it("refuses an unknown or expired link, mails at most three links an hour, and nothing to an account that cannot sign in", async () => {
    const owner = await server.addUser({ email: "busy-owner@example.com" })
    const disabled = await server.addUser({ email: "disabled-owner@example.com", active: false })
    await guessFromEverywhere(owner.email)
    await guessFromEverywhere(disabled.email)
    for (let i = 0; i < 5; i += 1) await server.call("login", { ip: nextIp(), body: { email: owner.email, password: PASSWORD } })
    await server.call("login", { ip: nextIp(), body: { email: disabled.email, password: PASSWORD } })
    await expect.poll(() => links(owner.email)).toHaveLength(3)
    expect(await links(disabled.email)).toHaveLength(0)
    const token = await mailedToken(server.db, owner.email, "sign-in-link")
    server.clock += 16 * 60 * 1000
    expect((await server.call("signInWithLink", { ip: nextIp(), body: { token } })).json()).toEqual({
      success: false,
      resultCode: 25,
      detail: "This sign-in link has expired. Sign in with your email and password to be sent a new one."
    })
    expect((await server.call("signInWithLink", { ip: nextIp(), body: { token: "n".repeat(43) } })).json()).toEqual({
      success: false,
      resultCode: 20,
      detail: "This sign-in link is not valid. Sign in with your email and password."
    })
  })
})

describe.each(dialects)("telling the owner ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  it("mails the owner once when a network is refused for the account, however many networks try", async () => {
    await server.addUser({ email: "guarded@example.com" })
    const outbox = () =>
      server.db.kysely.selectFrom("outbox").select(["kind", "text_body"]).where("to_address", "=", "guarded@example.com").execute()
    for (const ip of [nextIp(), nextIp()]) {
      const start = server.clock
      try {
        for (let i = 0; i < 5; i += 1) {
          server.clock += 60_000
          expect((await server.call("login", { ip, body: { email: "guarded@example.com", password: `guess-${i}` } })).json()).toMatchObject(
            { resultCode: 12 }
          )
        }
      } finally {
        server.clock = start
      }
    }
    await expect.poll(outbox).toHaveLength(1)
    const [mail] = await outbox()
    expect(mail?.kind).toBe("sign-in-paused")
    expect(mail?.text_body).toContain("paused for 15 minutes")
    // an address without an account gets nothing, and its answer is the same
    for (let i = 0; i < 5; i += 1)
      await server.call("login", { ip: "10.250.0.1", body: { email: "ghost@example.com", password: `guess-${i}` } })
    expect(await server.db.kysely.selectFrom("outbox").select("id").where("to_address", "=", "ghost@example.com").execute()).toEqual([])
  })
})

describe.each(dialects)("sign-in rate limits ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect, { limits: { failedSignInsPerAccount: 3, signInPerMinute: 4, apiPerMinute: 5 } })
    await server.addUser({ email: "target@example.com" })
  })
  afterAll(() => server.dispose())

  it("refuses a network that got an account's password wrong too often, before checking the password, while the owner still gets in from another", async () => {
    const attacker = nextIp()
    for (let i = 0; i < 3; i += 1) {
      const body = (await server.call("login", { ip: attacker, body: { email: "target@example.com", password: `guess-${i}` } })).json()
      expect(body).toMatchObject({ resultCode: 12 })
    }
    const response = await server.call("login", { ip: attacker, body: { email: "TARGET@example.com", password: PASSWORD } })
    expect(response.statusCode).toBe(429)
    const body = response.json() as { detail: string }
    expect(body).toMatchObject({ success: false, status: 429 })
    expect(body.detail).toMatch(
      /^Too many wrong passwords for this account, so password checks are paused for 15 minutes\. Try again then, or use Forgot password on the sign-in page\.$/
    )
    expect(Number(response.headers["retry-after"])).toBeGreaterThan(0)
    // the same IPv6 /64 is the same network, whichever address of it is used
    const owner = await server.call("login", { ip: nextIp(), body: { email: "target@example.com", password: PASSWORD } })
    expect(owner.json()).toMatchObject({ success: true, resultCode: 1 })
  })

  it("counts an IPv6 network by its /64", async () => {
    await server.addUser({ email: "six@example.com" })
    for (let i = 0; i < 3; i += 1) {
      await server.call("login", { ip: `2001:db8:1:2::${i + 1}`, body: { email: "six@example.com", password: `guess-${i}` } })
    }
    expect(
      (await server.call("login", { ip: "2001:db8:1:2:ffff::9", body: { email: "six@example.com", password: PASSWORD } })).statusCode
    ).toBe(429)
    expect(
      (await server.call("login", { ip: "2001:db8:1:3::1", body: { email: "six@example.com", password: PASSWORD } })).json()
    ).toMatchObject({ success: true })
  })

  it("limits sign-in attempts per address", async () => {
    const ip = nextIp()
    const statuses: number[] = []
    for (let i = 0; i < 5; i += 1) {
      statuses.push((await server.call("login", { ip, body: { email: `someone${i}@example.com`, password: "whatever1" } })).statusCode)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429])
  })

  it("limits the whole API per address, generously in production", async () => {
    const ip = nextIp()
    const statuses: number[] = []
    for (let i = 0; i < 6; i += 1) statuses.push((await server.call("maintenance", { ip })).statusCode)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const refused = await server.call("siteSettings", { ip })
    expect(refused.json()).toMatchObject({ success: false, status: 429 })
    expect((refused.json() as { detail: string }).detail).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/)
    expect(refused.headers["retry-after"]).toBeDefined()
  })
})
