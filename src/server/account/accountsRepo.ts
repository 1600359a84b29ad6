import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import { sessionsChanged } from "./sessionCache.ts"

// Account changes made by the account endpoints. `usersRepo` creates and finds accounts; these
// change one thing each, so a handler composes them inside its own transaction.

/** False when the address was already verified: whatever follows verification happens once. */
export async function markEmailVerified(db: Kysely<Tables>, userId: number, at: Timestamp): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ email_verified_at: at })
    .where("id", "=", userId)
    .where("email_verified_at", "is", null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function setUsername(db: Kysely<Tables>, userId: number, username: string): Promise<void> {
  await db.updateTable("users").set({ username }).where("id", "=", userId).execute()
  sessionsChanged()
}

/** Throws a unique violation when another account has the address by now. */
export async function setEmail(db: Kysely<Tables>, userId: number, email: string): Promise<boolean> {
  const result = await db.updateTable("users").set({ email }).where("id", "=", userId).executeTakeFirst()
  sessionsChanged()
  return result.numUpdatedRows > 0n
}
