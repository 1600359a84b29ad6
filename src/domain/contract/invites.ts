import * as Schema from "effect/Schema"
import { Invitation, RewardData } from "../Invitation.ts"
import { TokenString } from "../Validation.ts"
import { CodedResponse, endpoint } from "./endpoint.ts"

export const InvitationParams = Schema.Struct({ token: TokenString })
export const InvitationsResponse = Schema.Struct({
  success: Schema.Boolean,
  inviteToken: Schema.String,
  inviteLink: Schema.String,
  data: Schema.Array(Invitation)
})
export const RewardPointsResponse = Schema.Struct({ success: Schema.Boolean, ...RewardData.fields })

/** Invite codes, the invitations they brought, and the points those earned. */
export const invitesContract = {
  invitation: endpoint({
    method: "GET",
    path: "/api/invitations/invitation/{token}",
    params: InvitationParams,
    response: CodedResponse,
    access: "anyone",
    summary: "Check an invite code"
  }),
  invitations: endpoint({
    method: "GET",
    path: "/api/invitations/user/all",
    response: InvitationsResponse,
    access: "user",
    summary: "The user's invite token, its link at PUBLIC_URL, and the invitations it brought, newest first"
  }),
  rewardPoints: endpoint({
    method: "GET",
    path: "/api/invitations/rewardpoints",
    response: RewardPointsResponse,
    access: "user",
    summary: "Reward points and their value"
  })
} as const
