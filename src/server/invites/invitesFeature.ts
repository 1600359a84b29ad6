import type { Command } from "../cli/command.ts"
import { perMinute } from "../http/rateLimits.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { invitationHandlers } from "./invitationHandlers.ts"
import { findActiveUserByInviteToken, insertInvitation, signUpsThroughInviter } from "./invitationsRepo.ts"
import { inviteRefusal, newInviteToken } from "./inviteCodes.ts"
import { inviteLink } from "./inviteCommands.ts"
import { rewardInviter } from "./inviteRewards.ts"
import { rewardsAdjust } from "./rewardCommands.ts"
import { addLedgerEntry, rewardBalance } from "./rewardLedger.ts"

const INVITE_CHECKS_PER_MINUTE = 10

/** Invite links, the invitations they bring and the reward points they earn. */
export function invitesFeature({ db, config }: FeatureDeps): ServerFeature {
  // a code is checked before the sign-up form shows; many checks from one address are guesses
  const codeChecks = perMinute(INVITE_CHECKS_PER_MINUTE, "attempts")
  return {
    handlers: invitationHandlers(db, config.publicUrl),
    routeConfig: (name) => (name === "invitation" ? codeChecks : undefined)
  }
}

export const invitesCommands: ReadonlyArray<Command> = [inviteLink, rewardsAdjust]

/** What sign-up and verification ask of invites. */
export const invites = {
  /** The active account owning an invite code, or undefined; `refusal` is the answer for a code nobody owns. */
  inviterOf: findActiveUserByInviteToken,
  refusal: inviteRefusal,
  newCode: newInviteToken,
  /** Records that an account registered through an inviter's link; inside the sign-up's transaction. */
  recordSignUp: insertInvitation,
  signUpsThrough: signUpsThroughInviter,
  rewardInviter,
  /** An account's reward points: the sum of its ledger. */
  rewardBalance,
  addLedgerEntry
} as const
