import type { Kysely } from "kysely"
import type { RewardReason, Tables, Timestamp } from "../db/schema.ts"

export interface LedgerEntry {
  readonly userId: number
  readonly points: number
  readonly reason: RewardReason
  /** For `invite`: the invitation rewarded, which can be rewarded only once. */
  readonly invitationId?: number
  readonly at: Timestamp
}

/**
 * Adds a row to the points ledger; false when an invitation's reward is there already (the ledger
 * holds one per invitation, so a reward raced by two verifications is written once).
 */
export async function addLedgerEntry(db: Kysely<Tables>, entry: LedgerEntry): Promise<boolean> {
  const result = await db
    .insertInto("reward_ledger")
    .values({
      user_id: entry.userId,
      points: entry.points,
      reason: entry.reason,
      invitation_id: entry.invitationId ?? null,
      created_at: entry.at
    })
    .onConflict((oc) => oc.column("invitation_id").doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** An account's points: the sum of its ledger, 0 when it has none. */
export async function rewardBalance(db: Kysely<Tables>, userId: number): Promise<number> {
  const row = await db
    .selectFrom("reward_ledger")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("points"), eb.lit(0)).as("points"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow()
  return Number(row.points)
}
