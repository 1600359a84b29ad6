import { describe, expect, it } from "vitest"
import { verifyPassword } from "../../../src/server/account/passwords.ts"
import { findUserByEmail } from "../../../src/server/account/usersRepo.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"

describe.each(dialects)("account commands of the operator CLI ($name)", (dialect) => {
  const cli = useAdmin(dialect)

  it("creates verified accounts, lists them and resets passwords", async () => {
    expect(await cli.admin("user:create", "--email", "Boss@Example.com", "--password", "long password", "--staff")).toMatchObject({ code: 0 })
    expect((await cli.admin("user:create", "--email", "fan@example.com", "--password", "another one", "--username", "Fan")).code).toBe(0)
    const boss = await findUserByEmail(cli.database.db.kysely, "boss@example.com")
    expect(boss).toMatchObject({ email: "boss@example.com", username: "boss", is_staff: true })
    expect(boss?.email_verified_at).not.toBeNull()
    expect(await verifyPassword("long password", boss?.password_hash ?? "")).toBe(true)
    expect(await cli.admin("user:create", "--email", "boss@example.com", "--password", "long password")).toMatchObject({ code: 1, output: expect.stringContaining("already exists") })

    const list = await cli.admin("user:list")
    expect(list.output).toMatch(/boss@example\.com\s+boss\s+yes/)
    expect(list.output).toMatch(/fan@example\.com\s+Fan\s+no/)

    expect((await cli.admin("user:password", "--email", "fan@example.com", "--password", "brand new pass")).code).toBe(0)
    const fan = await findUserByEmail(cli.database.db.kysely, "fan@example.com")
    expect(await verifyPassword("brand new pass", fan?.password_hash ?? "")).toBe(true)
    expect((await cli.admin("user:password", "--email", "ghost@example.com", "--password", "brand new pass")).code).toBe(1)
  })
})
