import { randomBytes } from "node:crypto"
import { ResultCode } from "../../domain/ResultCode.ts"

export const INVITE_VALID = "Invite code is valid"
export const INVITE_MALFORMED = "This invite link is not valid. Check that you copied the whole link."
export const INVITE_UNKNOWN = "This invite link no longer works. Ask the person who invited you for a new one."

// Every invite token this server hands out is 16+ random bytes in base64url; seeing anything else
// means the link was mangled in transit, which is worth telling apart from a withdrawn invite.
const WELL_FORMED = /^[A-Za-z0-9_-]{16,128}$/

export const newInviteToken = (): string => randomBytes(16).toString("base64url")

export type InviteRefusal = { success: false; resultCode: 6 | 7; detail: string }

/**
 * The answer for an invite code no active account owns: 6 INVALID_INVITE_CODE when it cannot be
 * one of ours, 7 INVITE_NOT_FOUND when it could be but is unknown or its owner is disabled.
 *
 * Only 6 and 7 ever occur: an invite code is its owner's reusable link, not a single invitation,
 * so it is never pending (8), completed (9) or expired (10); those states belong to the
 * invitation rows a sign-up creates, which the inviter sees on /invites.
 */
export function inviteRefusal(code: string): InviteRefusal {
  return WELL_FORMED.test(code)
    ? { success: false, resultCode: ResultCode.INVITE_NOT_FOUND, detail: INVITE_UNKNOWN }
    : { success: false, resultCode: ResultCode.INVALID_INVITE_CODE, detail: INVITE_MALFORMED }
}
