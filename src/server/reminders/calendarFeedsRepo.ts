import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"

export async function findCalendarFeed(db: Kysely<Tables>, userId: number): Promise<{ readonly created_at: Timestamp } | undefined> {
  return db.selectFrom("calendar_feeds").select("created_at").where("user_id", "=", userId).executeTakeFirst()
}

/** The account whose feed has this secret's hash; undefined for one never made or revoked. */
export async function calendarFeedOwner(db: Kysely<Tables>, tokenHash: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("calendar_feeds as f")
    .innerJoin("users as u", "u.id", "f.user_id")
    .select("f.user_id")
    .where("f.token_hash", "=", tokenHash)
    .where("u.is_active", "=", true)
    .executeTakeFirst()
  return row?.user_id
}

/** The account's feed, replacing the one it had: its old address stops working in the same statement. */
export async function replaceCalendarFeed(db: Kysely<Tables>, userId: number, tokenHash: string, at: Timestamp): Promise<void> {
  await db
    .insertInto("calendar_feeds")
    .values({ user_id: userId, token_hash: tokenHash, created_at: at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ token_hash: tokenHash, created_at: at }))
    .execute()
}

export async function deleteCalendarFeed(db: Kysely<Tables>, userId: number): Promise<boolean> {
  const result = await db.deleteFrom("calendar_feeds").where("user_id", "=", userId).executeTakeFirst()
  return result.numDeletedRows > 0n
}
