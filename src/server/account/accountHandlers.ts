import type { AccountDeps } from "./accountDeps.ts"
import { type InvitationHandlers, invitationHandlers } from "../invites/invitationHandlers.ts"
import { type PasswordResetHandlers, passwordResetHandlers } from "./passwordResetHandlers.ts"
import { type ProfileHandlers, profileHandlers } from "./profileHandlers.ts"
import { type RegistrationHandlers, registrationHandlers } from "./registrationHandlers.ts"

export type AccountHandlers = RegistrationHandlers & InvitationHandlers & PasswordResetHandlers & ProfileHandlers

/** Sign-up, invites, verification, password reset and profile changes, for `registerContract`. */
export function accountHandlers(deps: AccountDeps): AccountHandlers {
  return {
    ...registrationHandlers(deps),
    ...invitationHandlers(deps),
    ...passwordResetHandlers(deps),
    ...profileHandlers(deps)
  }
}
