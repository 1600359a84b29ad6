import type { Kysely } from "kysely"
import type { OneTimeTokenRow, Tables, Timestamp, TokenPurpose } from "../db/schema.ts"

export interface NewOneTimeToken {
  purpose: TokenPurpose
  token_hash: string
  user_id: number
  new_email?: string | null
  session_id?: number | null
  created_at: Timestamp
  expires_at: Timestamp
}

export async function insertOneTimeToken(db: Kysely<Tables>, input: NewOneTimeToken): Promise<OneTimeTokenRow> {
  return db
    .insertInto("one_time_tokens")
    .values({ ...input, new_email: input.new_email ?? null, session_id: input.session_id ?? null, used_at: null })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findOneTimeToken(db: Kysely<Tables>, purpose: TokenPurpose, tokenHash: string): Promise<OneTimeTokenRow | undefined> {
  return db.selectFrom("one_time_tokens").selectAll().where("token_hash", "=", tokenHash).where("purpose", "=", purpose).executeTakeFirst()
}

/**
 * Marks the token used if it is still unused and unexpired, in one statement: of two concurrent
 * callers the database lets exactly one match the row. Returns the row only to the winner.
 */
export async function markOneTimeTokenUsed(
  db: Kysely<Tables>,
  purpose: TokenPurpose,
  tokenHash: string,
  now: Timestamp
): Promise<OneTimeTokenRow | undefined> {
  return db
    .updateTable("one_time_tokens")
    .set({ used_at: now })
    .where("token_hash", "=", tokenHash)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returningAll()
    .executeTakeFirst()
}

/** Drops a user's tokens of one purpose that were never used; returns how many. */
export async function deleteUnusedOneTimeTokens(db: Kysely<Tables>, userId: number, purpose: TokenPurpose): Promise<number> {
  const result = await db
    .deleteFrom("one_time_tokens")
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Housekeeping: drops tokens, used or not, that expired up to `expiredBefore`. The caller picks a
 * time well in the past, so an old link still answers "expired" or "used" for a while, not "not found".
 */
export async function deleteExpiredOneTimeTokens(db: Kysely<Tables>, expiredBefore: Timestamp): Promise<number> {
  const result = await db.deleteFrom("one_time_tokens").where("expires_at", "<=", expiredBefore).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** The address an email change still waiting for its confirmation would switch the account to, if any. */
export async function findPendingNewEmail(db: Kysely<Tables>, userId: number, now: Timestamp): Promise<string | undefined> {
  const row = await db
    .selectFrom("one_time_tokens")
    .select("new_email")
    .where("user_id", "=", userId)
    .where("purpose", "=", "email-change")
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst()
  return row?.new_email ?? undefined
}
