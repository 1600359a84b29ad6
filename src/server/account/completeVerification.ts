import type { Kysely } from "kysely"
import { REWARD_POINTS_PER_INVITE } from "../../domain/constants.ts"
import { addRewardPoints, markEmailVerified } from "./accountsRepo.ts"
import { completeInvitation } from "../invites/invitationsRepo.ts"
import type { Tables, Timestamp } from "../db/schema.ts"

/**
 * The account has proven it reads mail at its address: mark it verified, complete the invitation
 * it registered with and reward the inviter. Run inside the transaction that spent the token, so
 * the reward exists exactly when the token is used. False when it was verified already.
 */
export async function completeVerification(trx: Kysely<Tables>, userId: number, at: Timestamp): Promise<boolean> {
  if (!(await markEmailVerified(trx, userId, at))) return false
  const inviterId = await completeInvitation(trx, userId, at)
  if (inviterId !== undefined) await addRewardPoints(trx, inviterId, REWARD_POINTS_PER_INVITE)
  return true
}
