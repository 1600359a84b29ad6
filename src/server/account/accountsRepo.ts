import type { Kysely } from "kysely"
import type { Tables, Timestamp, UserRow } from "../db/schema.ts"

// Account changes made by the account endpoints. `usersRepo` creates and finds accounts; these
// change one thing each, so a handler composes them inside its own transaction.

/** The active account whose invite link this is. */
export async function findActiveUserByInviteToken(db: Kysely<Tables>, inviteToken: string): Promise<UserRow | undefined> {
  return db.selectFrom("users")
    .selectAll()
    .where("invite_token", "=", inviteToken)
    .where("is_active", "=", true)
    .executeTakeFirst()
}

/** False when the address was already verified: whatever follows verification happens once. */
export async function markEmailVerified(db: Kysely<Tables>, userId: number, at: Timestamp): Promise<boolean> {
  const result = await db.updateTable("users")
    .set({ email_verified_at: at })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** In the database, not read-modify-write, so concurrent rewards all count. */
export async function addRewardPoints(db: Kysely<Tables>, userId: number, points: number): Promise<void> {
  await db.updateTable("users")
    .set((eb) => ({ reward_points: eb("reward_points", "+", points) }))
    .where("id", "=", userId)
    .execute()
}

export async function setUsername(db: Kysely<Tables>, userId: number, username: string): Promise<void> {
  await db.updateTable("users").set({ username }).where("id", "=", userId).execute()
}

/** Throws a unique violation when another account has the address by now. */
export async function setEmail(db: Kysely<Tables>, userId: number, email: string): Promise<boolean> {
  const result = await db.updateTable("users").set({ email }).where("id", "=", userId).executeTakeFirst()
  return result.numUpdatedRows > 0n
}
