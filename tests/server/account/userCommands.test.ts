import { describe, expect, it } from "vitest"
import { verifyPassword } from "../../../src/server/account/passwords.ts"
import { insertSession } from "../../../src/server/account/sessionsRepo.ts"
import { findUserByEmail } from "../../../src/server/account/usersRepo.ts"
import { hasNoMetering } from "../../../src/server/telemetry/playerToken.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"

describe.each(dialects)("account commands of the operator CLI ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("creates verified accounts, lists them and resets passwords", async () => {
    expect(await cli.admin("user:create", "--email", "Boss@Example.com", "--password", "long password", "--staff")).toMatchObject({
      code: 0
    })
    expect((await cli.admin("user:create", "--email", "fan@example.com", "--password", "another one", "--username", "Fan")).code).toBe(0)
    const boss = await findUserByEmail(cli.database.db.kysely, "boss@example.com")
    expect(boss).toMatchObject({ email: "boss@example.com", username: "boss", is_staff: true })
    expect(boss?.email_verified_at).not.toBeNull()
    expect(await verifyPassword("long password", boss?.password_hash ?? "")).toBe(true)
    expect(await cli.admin("user:create", "--email", "boss@example.com", "--password", "long password")).toMatchObject({
      code: 1,
      output: expect.stringContaining("already exists")
    })

    const list = await cli.admin("user:list")
    expect(list.output).toMatch(/boss@example\.com\s+boss\s+yes/)
    expect(list.output).toMatch(/fan@example\.com\s+Fan\s+no/)

    expect((await cli.admin("user:password", "--email", "fan@example.com", "--password", "brand new pass")).code).toBe(0)
    const fan = await findUserByEmail(cli.database.db.kysely, "fan@example.com")
    expect(await verifyPassword("brand new pass", fan?.password_hash ?? "")).toBe(true)
    expect((await cli.admin("user:password", "--email", "ghost@example.com", "--password", "brand new pass")).code).toBe(1)
  })

  it("disables an account (signed out everywhere, refused at sign-in) and enables it again", async () => {
    await cli.admin("user:create", "--email", "fan@example.com", "--password", "long password")
    const fan = await findUserByEmail(cli.database.db.kysely, "fan@example.com")
    await insertSession(cli.database.db.kysely, {
      user_id: fan?.id ?? 0,
      token_hash: "h".repeat(64),
      expires_at: "2999-01-01T00:00:00.000Z"
    })
    const disabled = await cli.admin("user:disable", "--email", "Fan@Example.com")
    expect(disabled).toEqual({ code: 0, output: "Disabled fan@example.com; 1 session(s) ended" })
    expect(await findUserByEmail(cli.database.db.kysely, "fan@example.com")).toMatchObject({ is_active: false })
    expect(
      await cli.database.db.kysely
        .selectFrom("sessions")
        .select("id")
        .where("user_id", "=", fan?.id ?? 0)
        .execute()
    ).toEqual([])
    expect((await cli.admin("user:list")).output).toMatch(/fan@example\.com\s+fan\s+no\s+no/)

    expect(await cli.admin("user:enable", "--email", "fan@example.com")).toEqual({
      code: 0,
      output: "Enabled fan@example.com; it can sign in again"
    })
    expect(await findUserByEmail(cli.database.db.kysely, "fan@example.com")).toMatchObject({ is_active: true })
    expect((await cli.admin("user:enable", "--email", "fan@example.com")).output).toBe("fan@example.com was already enabled")
    expect((await cli.admin("user:disable", "--email", "ghost@example.com")).code).toBe(1)
    expect((await cli.admin("user:disable")).code).toBe(2)
  })

  it("grants and withdraws the no-metering permission", async () => {
    await cli.admin("user:create", "--email", "tester@example.com", "--password", "long password")
    const tester = await findUserByEmail(cli.database.db.kysely, "tester@example.com")
    expect(await cli.admin("user:metering", "--email", "tester@example.com", "--off")).toEqual({
      code: 0,
      output: "tester@example.com now plays without metering"
    })
    expect(await hasNoMetering(cli.database.db.kysely, tester?.id ?? 0)).toBe(true)
    expect(await cli.admin("user:metering", "--email", "tester@example.com", "--on")).toEqual({
      code: 0,
      output: "tester@example.com's playback is metered"
    })
    expect(await hasNoMetering(cli.database.db.kysely, tester?.id ?? 0)).toBe(false)
    expect((await cli.admin("user:metering", "--email", "tester@example.com")).code).toBe(2)
    expect((await cli.admin("user:metering", "--email", "tester@example.com", "--on", "--off")).code).toBe(2)
  })
})
