import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"

export async function recordPasswordResetRequest(db: Kysely<Tables>, emailHash: string, network: string, at: Timestamp): Promise<void> {
  await db.insertInto("password_reset_requests").values({ email_hash: emailHash, network, created_at: at }).execute()
}

/** Requests for one address made after `since` (from one network, when given), and when the earliest of them was. */
export async function passwordResetRequestsSince(
  db: Kysely<Tables>,
  emailHash: string,
  since: Timestamp,
  network?: string
): Promise<{ count: number; earliest: Timestamp | undefined }> {
  let query = db
    .selectFrom("password_reset_requests")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min("created_at").as("earliest")])
    .where("email_hash", "=", emailHash)
    .where("created_at", ">", since)
  if (network !== undefined) query = query.where("network", "=", network)
  const row = await query.executeTakeFirstOrThrow()
  return { count: Number(row.count), earliest: row.earliest ?? undefined }
}

/** Housekeeping: requests older than the limit's window no longer count for anything. */
export async function deletePasswordResetRequestsBefore(db: Kysely<Tables>, before: Timestamp): Promise<number> {
  const result = await db.deleteFrom("password_reset_requests").where("created_at", "<=", before).executeTakeFirst()
  return Number(result.numDeletedRows)
}
