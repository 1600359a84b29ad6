import { ResultCode } from "../../domain/ResultCode.ts"
import { findActiveUserByInviteToken } from "../account/accountsRepo.ts"
import { listInvitationsByInviter } from "./invitationsRepo.ts"
import { findUserById } from "../account/usersRepo.ts"
import type { Handler } from "../http/registerContract.ts"
import { readSiteSettings } from "../shell/siteSettings.ts"
import type { AccountDeps } from "../account/accountDeps.ts"
import { INVITE_VALID, inviteRefusal } from "./inviteCodes.ts"

export interface InvitationHandlers {
  invitation: Handler<"invitation">
  invitations: Handler<"invitations">
  rewardPoints: Handler<"rewardPoints">
}

export function invitationHandlers({ db }: Pick<AccountDeps, "db">): InvitationHandlers {
  return {
    async invitation({ params }) {
      const inviter = await findActiveUserByInviteToken(db, params.token)
      return inviter === undefined
        ? inviteRefusal(params.token)
        : { success: true, resultCode: ResultCode.SUCCESS, detail: INVITE_VALID }
    },

    async invitations({ session }) {
      const [user, invitations] = await Promise.all([
        findUserById(db, session.userId),
        listInvitationsByInviter(db, session.userId)
      ])
      return {
        success: true,
        inviteToken: user?.invite_token ?? "",
        data: invitations.map((row) => ({
          newUserEmail: row.new_user_email,
          createdAt: row.created_at,
          rewardGiven: row.reward_given
        }))
      }
    },

    async rewardPoints({ session }) {
      const [user, settings] = await Promise.all([findUserById(db, session.userId), readSiteSettings(db)])
      return { success: true, rewardPoints: user?.reward_points ?? 0, pricePerRewardPoint: settings.pricePerRewardPoint }
    }
  }
}
