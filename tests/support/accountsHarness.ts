import { expect } from "vitest"
import type { Db } from "../../src/server/db/database.ts"
import type { MailKind, OutboxRow, Tables } from "../../src/server/db/schema.ts"
import { invites } from "../../src/server/invites/invitesFeature.ts"
import { firstLink } from "../../src/server/mail/messages.ts"
import { nextIp, PASSWORD, type TestServer } from "./testServer.ts"

// Shared by the account test files: the raw tokens exist only in the mails, so tests read them
// from the outbox the way a person reads them from their inbox.

export const HOUR = 60 * 60 * 1000

/** The newest queued mail of a kind to an address. */
export async function lastMail(db: Db, to: string, kind: MailKind): Promise<OutboxRow | undefined> {
  return db.kysely
    .selectFrom("outbox")
    .selectAll()
    .where("to_address", "=", to)
    .where("kind", "=", kind)
    .orderBy("id", "desc")
    .executeTakeFirst()
}

/** The token in the link of the newest mail of a kind to an address. */
export async function mailedToken(db: Db, to: string, kind: MailKind): Promise<string> {
  const mail = await lastMail(db, to, kind)
  expect(mail, `a ${kind} mail to ${to}`).toBeDefined()
  return tokenOf(mail?.text_body ?? "")
}

export function tokenOf(text: string): string {
  const link = firstLink(text)
  expect(link, text).toBeDefined()
  return new URL(link ?? "http://x").searchParams.get("token") ?? ""
}

export async function mailCount(db: Db, to?: string): Promise<number> {
  let query = db.kysely.selectFrom("outbox").select((eb) => eb.fn.countAll<number>().as("n"))
  if (to !== undefined) query = query.where("to_address", "=", to)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

/** Rows of every table an account request may touch, to show a refused one touched none. */
export async function accountTableCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  const tables = ["users", "sessions", "invitations", "one_time_tokens", "outbox", "password_reset_requests"] as const
  for (const table of tables) {
    const row = await db.kysely
      .selectFrom(table as keyof Tables)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return counts
}

/** Snapshot of an account's columns, to show a refused request changed nothing. */
export async function userRow(db: Db, email: string) {
  return db.kysely.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst()
}

/** An account's reward points, summed from its ledger. */
export async function rewardPointsOf(db: Db, email: string): Promise<number> {
  const user = await userRow(db, email)
  return user === undefined ? 0 : invites.rewardBalance(db.kysely, user.id)
}

/** Registers through `inviteToken` and answers the body; each call from a fresh address. */
export async function register(server: TestServer, inviteToken: string, email: string, password = PASSWORD) {
  const response = await server.call("register", {
    body: { username: email.split("@")[0] ?? "user", email, password, invitationToken: inviteToken },
    ip: nextIp()
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json() as { success: boolean; resultCode: number; detail?: string }
}

export async function login(server: TestServer, email: string, password = PASSWORD) {
  return (await server.call("login", { body: { email, password } })).json() as {
    success: boolean
    resultCode: number
    token?: string
    detail?: string
  }
}

/** Registers through `inviteToken` and follows the mailed verification link. */
export async function registerVerified(server: TestServer, inviteToken: string, email: string): Promise<void> {
  expect(await register(server, inviteToken, email)).toMatchObject({ success: true, resultCode: 1 })
  const token = await mailedToken(server.db, email, "verify")
  expect((await server.call("verifyEmail", { body: { token } })).json()).toMatchObject({ resultCode: 1 })
}
