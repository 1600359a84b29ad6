import { randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import { hashToken } from "./oneTimeTokens.ts"

// A sign-in link stands in for a password check the account cannot take just now: strangers have
// spent its wrong-password budget, so new networks are not heard, and the owner on a new network
// (a trip, a new phone) gets this by mail after entering the right password. Single-use, short
// lived, kept only as its hash.

/** How long a mailed sign-in link works. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60 * 1000
/** Links mailed to one account within an hour at most, however often the right password is entered. */
export const SIGN_IN_LINKS_PER_HOUR = 3

export type SignInLinkCheck = { status: "valid"; userId: number } | { status: "not-found" } | { status: "used" } | { status: "expired" }

/** Stores a new link for the account and answers its raw token, which only the mail carries. */
export async function issueSignInLink(db: Kysely<Tables>, userId: number, now: number): Promise<string> {
  const raw = randomBytes(32).toString("base64url")
  await db
    .insertInto("sign_in_links")
    .values({
      token_hash: hashToken(raw),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + SIGN_IN_LINK_LIFETIME_MS).toISOString(),
      used_at: null
    })
    .execute()
  return raw
}

/** Uses the link up: of any number of concurrent calls with one token, exactly one gets `valid`. */
export async function consumeSignInLink(db: Kysely<Tables>, raw: string, now: number): Promise<SignInLinkCheck> {
  const at = new Date(now).toISOString()
  const hash = hashToken(raw)
  const won = await db
    .updateTable("sign_in_links")
    .set({ used_at: at })
    .where("token_hash", "=", hash)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .returning("user_id")
    .executeTakeFirst()
  if (won !== undefined) return { status: "valid", userId: won.user_id }
  const row = await db.selectFrom("sign_in_links").select(["used_at", "expires_at"]).where("token_hash", "=", hash).executeTakeFirst()
  if (row === undefined) return { status: "not-found" }
  return row.used_at !== null ? { status: "used" } : { status: "expired" }
}

/** Housekeeping: forgets links that expired before `before`; answers how many went. */
export async function deleteExpiredSignInLinks(db: Kysely<Tables>, before: Timestamp): Promise<number> {
  const result = await db.deleteFrom("sign_in_links").where("expires_at", "<", before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
