import type { Kysely } from "kysely"
import { REWARD_POINTS_PER_INVITE } from "../../domain/Invitation.ts"
import type { Tables, Timestamp } from "../db/schema.ts"
import { completeInvitation } from "./invitationsRepo.ts"
import { addLedgerEntry } from "./rewardLedger.ts"

/**
 * A newly verified account completes the invitation it registered with, and its inviter earns
 * the reward. Run inside the transaction that verified the account, so the reward exists exactly
 * when the verification does. Twice guarded against a second reward: only the update that
 * completes the invitation goes on, and the ledger takes one row per invitation.
 */
export async function rewardInviter(trx: Kysely<Tables>, newUserId: number, at: Timestamp): Promise<void> {
  const invitation = await completeInvitation(trx, newUserId, at)
  if (invitation === undefined) return
  await addLedgerEntry(trx, {
    userId: invitation.inviterId,
    points: REWARD_POINTS_PER_INVITE,
    reason: "invite",
    invitationId: invitation.id,
    at
  })
}
