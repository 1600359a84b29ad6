import type { Kysely } from "kysely"
import type { invitesContract } from "../../domain/contract/invites.ts"
import { inviteLink } from "../../domain/Invitation.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import type { Tables } from "../db/schema.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { findActiveUserByInviteToken, findInviter, listInvitationsByInviter } from "./invitationsRepo.ts"
import { INVITE_VALID, inviteRefusal } from "./inviteCodes.ts"
import { rewardBalance } from "./rewardLedger.ts"

export type InvitationHandlers = HandlersOf<typeof invitesContract>

export function invitationHandlers(db: Kysely<Tables>, publicUrl: string): InvitationHandlers {
  return {
    async invitation({ params }) {
      const inviter = await findActiveUserByInviteToken(db, params.token)
      return inviter === undefined ? inviteRefusal(params.token) : { success: true, resultCode: ResultCode.SUCCESS, detail: INVITE_VALID }
    },

    async invitations({ session }) {
      const [inviter, invitations] = await Promise.all([
        findInviter(db, { id: session.userId }),
        listInvitationsByInviter(db, session.userId)
      ])
      const inviteToken = inviter?.invite_token ?? ""
      return {
        success: true,
        inviteToken,
        inviteLink: inviteLink(publicUrl, inviteToken),
        data: invitations.map((row) => ({
          newUserEmail: row.new_user_email,
          createdAt: row.created_at,
          rewardGiven: row.reward_given
        }))
      }
    },

    async rewardPoints({ session }) {
      const [rewardPoints, settings] = await Promise.all([rewardBalance(db, session.userId), siteSettings.read(db)])
      return { success: true, rewardPoints, pricePerRewardPoint: settings.pricePerRewardPoint }
    }
  }
}
