import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { loadConfig } from "../../../src/server/config.ts"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { serverAddress } from "../../../src/server/shell/shellFeature.ts"
import { HOUR, mailedToken, register, registerVerified } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

describe.each(dialects)("invitations and reward points ($name)", (dialect) => {
  let server: TestServer
  let inviter: UserRow
  let token: string

  beforeAll(async () => {
    server = await startTestServer(dialect)
    inviter = await server.addUser({ email: "inviter@example.com", points: 4 })
    token = await server.signIn("inviter@example.com")
  })
  afterAll(() => server.dispose())

  describe("checking an invite code", () => {
    it("answers 1 for an active account's code", async () => {
      const response = await server.call("invitation", { params: { token: inviter.invite_token } })
      expect(response.json()).toEqual({ success: true, resultCode: 1, detail: "Invite code is valid" })
    })

    it.each([
      ["malformed", "not a code", 6, "This invite link is not valid. Check that you copied the whole link."],
      ["too short", "abc", 6, "This invite link is not valid. Check that you copied the whole link."],
      ["well-formed but unknown", "Zz".repeat(11), 7, "This invite link no longer works. Ask the person who invited you for a new one."]
    ])("answers %s codes with its result code", async (_case, code, resultCode, detail) => {
      expect((await server.call("invitation", { params: { token: code } })).json()).toEqual({ success: false, resultCode, detail })
    })

    it("answers 7 for the code of a deactivated account", async () => {
      const gone = await server.addUser({ active: false })
      expect((await server.call("invitation", { params: { token: gone.invite_token } })).json()).toMatchObject({ resultCode: 7 })
    })
  })

  describe("the signed-in user's invites", () => {
    it("lists the invite token and each invitation, registered then completed", async () => {
      const empty = (await server.call("invitations", { token })).json()
      expect(empty).toEqual({
        success: true,
        inviteToken: inviter.invite_token,
        inviteLink: `http://localhost:8080/register?invite=${inviter.invite_token}`,
        data: []
      })

      const registeredAt = new Date(server.clock).toISOString()
      expect(await register(server, inviter.invite_token, "Pending.Friend@example.com")).toMatchObject({ resultCode: 1 })
      server.clock += HOUR
      await registerVerified(server, inviter.invite_token, "done.friend@example.com")
      const completedAt = new Date(server.clock).toISOString()

      const listed = (await server.call("invitations", { token })).json() as { data: unknown[] }
      expect(listed).toEqual({
        success: true,
        inviteToken: inviter.invite_token,
        inviteLink: `http://localhost:8080/register?invite=${inviter.invite_token}`,
        data: [
          { newUserEmail: "done.friend@example.com", createdAt: completedAt, rewardGiven: completedAt },
          { newUserEmail: "pending.friend@example.com", createdAt: registeredAt, rewardGiven: null }
        ]
      })
    })

    it("shows no one else's invitations", async () => {
      const other = await server.addUser({ email: "other@example.com" })
      const otherToken = await server.signIn(other.email)
      expect((await server.call("invitations", { token: otherToken })).json()).toMatchObject({
        success: true,
        inviteToken: other.invite_token,
        inviteLink: `http://localhost:8080/register?invite=${other.invite_token}`,
        data: []
      })
    })

    it("answers reward points with their value from the site settings", async () => {
      const points = (await server.call("rewardPoints", { token })).json() as { rewardPoints: number }
      expect(points).toEqual({ success: true, rewardPoints: 5, pricePerRewardPoint: 1 })
      await server.db.kysely
        .insertInto("settings")
        .values({ key: "pricePerRewardPoint", value: "2.5" })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: "2.5" }))
        .execute()
      expect((await server.call("rewardPoints", { token })).json()).toEqual({ success: true, rewardPoints: 5, pricePerRewardPoint: 2.5 })
    })

    it("adds a point when a pending invitee verifies later", async () => {
      const verifyToken = await mailedToken(server.db, "pending.friend@example.com", "verify")
      expect((await server.call("verifyEmail", { body: { token: verifyToken } })).json()).toMatchObject({ resultCode: 1 })
      expect((await server.call("rewardPoints", { token })).json()).toMatchObject({ rewardPoints: 6 })
    })

    it("refuses the invite pages without a session with 403", async () => {
      for (const name of ["invitations", "rewardPoints"] as const) {
        expect((await server.call(name)).statusCode).toBe(403)
      }
    })
  })

  describe("invite:link", () => {
    const admin = async (...argv: string[]) => {
      const lines: string[] = []
      const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db })
      return { code, output: lines.join("\n") }
    }

    it("prints an account's invite link under PUBLIC_URL", async () => {
      expect(await admin("invite:link", "--email", "Inviter@Example.com")).toEqual({
        code: 0,
        output: `http://localhost:8080/register?invite=${inviter.invite_token}`
      })
    })

    it("without PUBLIC_URL, builds the link like the server did at its last start and says so", async () => {
      const bare = loadConfig({
        DATA_DIR: server.config.dataDir,
        ...(server.config.databaseUrl === undefined ? {} : { DATABASE_URL: server.config.databaseUrl })
      })
      const run = async () => {
        const out: string[] = []
        const err: string[] = []
        const code = await runAdmin(["invite:link", "--email", "inviter@example.com"], {
          config: bare,
          out: (text) => out.push(text),
          err: (text) => err.push(text),
          db: server.db
        })
        return { code, out: out.join("\n"), err: err.join("\n") }
      }
      const fresh = await run()
      expect(fresh).toMatchObject({ code: 0, out: `http://localhost:8080/register?invite=${inviter.invite_token}` })
      expect(fresh.err).toContain("the default address http://localhost:8080; set PUBLIC_URL")

      await serverAddress.remember(server.db.kysely, { publicUrl: "https://tv.example.org", startedAt: "2026-11-23T06:00:00.000Z" })
      const started = await run()
      expect(started).toMatchObject({ code: 0, out: `https://tv.example.org/register?invite=${inviter.invite_token}` })
      expect(started.err).toContain("the one the server last started with (2026-11-23T06:00:00.000Z)")
    })

    it("exits 1 for an unknown email, as every command does, and 2 for a malformed one, with a clear error", async () => {
      const unknown = await admin("invite:link", "--email", "ghost@example.com")
      expect(unknown.code).toBe(1)
      expect(unknown.output).toContain("invite:link: No account with email ghost@example.com")
      const malformed = await admin("invite:link", "--email", "ghost")
      expect(malformed.code).toBe(2)
      expect(malformed.output).toContain("--email: Enter a valid email address.")
      expect((await admin("invite:link")).code).toBe(2)
    })

    it("notes that a deactivated account's link is refused", async () => {
      const gone = await server.addUser({ email: "gone@example.com", active: false })
      const { code, output } = await admin("invite:link", "--email", "gone@example.com")
      expect(code).toBe(0)
      expect(output).toContain(`/register?invite=${gone.invite_token}`)
      expect(output).toContain("deactivated")
    })

    it("is listed in --help", async () => {
      expect((await admin("--help")).output).toContain("invite:link --email E")
    })
  })
})
