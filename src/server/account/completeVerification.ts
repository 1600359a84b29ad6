import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import { invites } from "../invites/invitesFeature.ts"
import { markEmailVerified } from "./accountsRepo.ts"

/**
 * The account has proven it reads mail at its address: mark it verified and let invites reward
 * whoever invited it. Run inside the transaction that spent the token, so the reward exists
 * exactly when the token is used. False when it was verified already.
 */
export async function completeVerification(trx: Kysely<Tables>, userId: number, at: Timestamp): Promise<boolean> {
  if (!(await markEmailVerified(trx, userId, at))) return false
  await invites.rewardInviter(trx, userId, at)
  return true
}
