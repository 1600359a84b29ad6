import { sql } from "kysely"
import { Migrator } from "kysely/migration"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrateToLatest, migrations } from "../../../src/server/db/migrations.ts"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { invites } from "../../../src/server/invites/invitesFeature.ts"
import { mailedToken, register, rewardPointsOf } from "../../support/accountsHarness.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

const ledgerRows = (server: TestServer, userId: number) =>
  server.db.kysely.selectFrom("reward_ledger").select(["points", "reason", "invitation_id"]).where("user_id", "=", userId).execute()

describe.each(dialects)("the reward points ledger ($name)", (dialect) => {
  let server: TestServer
  let inviter: UserRow

  beforeAll(async () => {
    server = await startTestServer(dialect)
    inviter = await server.addUser({ email: "ledger.host@example.com" })
  })
  afterAll(() => server.dispose())

  it("rewards one invitation once when its verifications race, through the API", async () => {
    await register(server, inviter.invite_token, "racer@example.com")
    const token = await mailedToken(server.db, "racer@example.com", "verify")
    const answers = await Promise.all(Array.from({ length: 6 }, () => server.call("verifyEmail", { body: { token } })))
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true)
    expect(await rewardPointsOf(server.db, inviter.email)).toBe(1)
    expect(await ledgerRows(server, inviter.id)).toEqual([{ points: 1, reason: "invite", invitation_id: expect.any(Number) }])
  })

  it("rewards one invitation once when completions race in separate transactions", async () => {
    await register(server, inviter.invite_token, "twice@example.com")
    const invitee = await server.db.kysely
      .selectFrom("users")
      .select("id")
      .where("email", "=", "twice@example.com")
      .executeTakeFirstOrThrow()
    const at = new Date(server.clock).toISOString()
    await Promise.all(
      Array.from({ length: 8 }, () => server.db.kysely.transaction().execute((trx) => invites.rewardInviter(trx, invitee.id, at)))
    )
    expect(await rewardPointsOf(server.db, inviter.email)).toBe(2)
    const rows = await ledgerRows(server, inviter.id)
    expect(rows).toHaveLength(2)
    expect(new Set(rows.map((row) => row.invitation_id)).size).toBe(2)
  })

  it("keeps a second row for the same invitation out even when the invitation is left open", async () => {
    const invitation = await server.db.kysely
      .selectFrom("invitations")
      .select(["id"])
      .where("new_user_email", "=", "twice@example.com")
      .executeTakeFirstOrThrow()
    const again = await invites.addLedgerEntry(server.db.kysely, {
      userId: inviter.id,
      points: 1,
      reason: "invite",
      invitationId: invitation.id,
      at: new Date(server.clock).toISOString()
    })
    expect(again).toBe(false)
    expect(await rewardPointsOf(server.db, inviter.email)).toBe(2)
  })

  it("answers the sum of the ledger as the user's points, on /api/users/user too", async () => {
    await invites.addLedgerEntry(server.db.kysely, {
      userId: inviter.id,
      points: -1,
      reason: "redeem",
      at: new Date(server.clock).toISOString()
    })
    const token = await server.signIn(inviter.email, PASSWORD)
    expect((await server.call("rewardPoints", { token })).json()).toMatchObject({ rewardPoints: 1 })
    expect((await server.call("userInfo", { token, body: {} })).json()).toMatchObject({ data: { userRewardPoints: 1 } })
  })
})

describe.each(dialects)("rewards:adjust ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("adds and takes back points as ledger rows, never below none", async () => {
    expect((await cli.admin("user:create", "--email", "points@example.com", "--password", PASSWORD)).code).toBe(0)
    expect(await cli.admin("rewards:adjust", "--email", "Points@Example.com", "--points", "3")).toEqual({
      code: 0,
      output: "points@example.com now has 3 reward points."
    })
    expect(await cli.admin("rewards:adjust", "--email", "points@example.com", "--points=-2")).toEqual({
      code: 0,
      output: "points@example.com now has 1 reward point."
    })
    const refused = await cli.admin("rewards:adjust", "--email", "points@example.com", "--points=-2")
    expect(refused.code).toBe(1)
    expect(refused.output).toContain("points@example.com has 1 points; taking 2 would leave fewer than none.")
    expect(await rewardPointsOf(cli.database.db, "points@example.com")).toBe(1)
  })

  it("refuses unusable arguments with exit code 2 and an unknown account with 1", async () => {
    for (const points of ["0", "1.5", "many", "100000"]) {
      expect((await cli.admin("rewards:adjust", "--email", "x@example.com", "--points", points)).code).toBe(2)
    }
    expect((await cli.admin("rewards:adjust", "--email", "nobody", "--points", "1")).code).toBe(2)
    const unknown = await cli.admin("rewards:adjust", "--email", "ghost@example.com", "--points", "1")
    expect(unknown.code).toBe(1)
    expect(unknown.output).toContain("No account with email ghost@example.com")
  })
})

describe.each(dialects)("moving reward points into the ledger ($name)", (dialect) => {
  it("keeps every account's points: a row per completed invitation, the rest as one adjustment", async () => {
    const database = await dialect.create({ migrate: false })
    try {
      const db = database.db
      const schema =
        database.databaseUrl === undefined ? undefined : (new URL(database.databaseUrl).searchParams.get("schema") ?? undefined)
      const migrator = new Migrator({
        db: db.kysely,
        provider: { getMigrations: async () => migrations(db.dialect) },
        ...(schema === undefined ? {} : { migrationTableSchema: schema })
      })
      expect((await migrator.migrateTo("0006_guide")).error).toBeUndefined()
      const at = "2026-05-01T10:00:00.000Z"
      const user = (email: string, points: number) =>
        sql`insert into users (username, email, password_hash, invite_token, reward_points, created_at) values (${email}, ${email}, 'h', ${email}, ${points}, ${at})`.execute(
          db.kysely
        )
      await user("host@example.com", 5)
      await user("guest.a@example.com", 0)
      await user("guest.b@example.com", 0)
      await user("quiet@example.com", 0)
      const id = async (email: string) =>
        (await sql<{ id: number }>`select id from users where email = ${email}`.execute(db.kysely)).rows[0]?.id ?? 0
      const host = await id("host@example.com")
      await sql`insert into invitations (inviter_id, new_user_id, new_user_email, created_at, reward_given) values
        (${host}, ${await id("guest.a@example.com")}, 'guest.a@example.com', ${at}, ${at}),
        (${host}, ${await id("guest.b@example.com")}, 'guest.b@example.com', ${at}, null)`.execute(db.kysely)

      // every migration after the guide's, the ledger's first
      const after = Object.keys(migrations(db.dialect)).filter((name) => name > "0006_guide")
      expect(after[0]).toBe("0007_rewards_payments_tickets")
      expect(await migrateToLatest(db)).toEqual(after)
      expect(await invites.rewardBalance(db.kysely, host)).toBe(5)
      expect(await invites.rewardBalance(db.kysely, await id("quiet@example.com"))).toBe(0)
      const rows = await db.kysely.selectFrom("reward_ledger").select(["user_id", "points", "reason"]).orderBy("id").execute()
      expect(rows).toEqual([
        { user_id: host, points: 1, reason: "invite" },
        { user_id: host, points: 4, reason: "adjust" }
      ])
    } finally {
      await database.dispose()
    }
  })
})
