import type { Kysely } from "kysely"
import { REWARD_POINTS_PER_INVITE } from "../../domain/Invitation.ts"
import type { Tables, Timestamp } from "../db/schema.ts"
import { addRewardPoints, completeInvitation } from "./invitationsRepo.ts"

/**
 * A newly verified account completes the invitation it registered with, and its inviter earns
 * the reward. Run inside the transaction that verified the account, so the reward exists exactly
 * when the verification does; an invitation completed already rewards nobody again.
 */
export async function rewardInviter(trx: Kysely<Tables>, newUserId: number, at: Timestamp): Promise<void> {
  const inviterId = await completeInvitation(trx, newUserId, at)
  if (inviterId !== undefined) await addRewardPoints(trx, inviterId, REWARD_POINTS_PER_INVITE)
}
