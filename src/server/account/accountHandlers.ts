import type { AccountDeps } from "./accountDeps.ts"
import { type PasswordResetHandlers, passwordResetHandlers } from "./passwordResetHandlers.ts"
import { type ProfileHandlers, profileHandlers } from "./profileHandlers.ts"
import { type RegistrationHandlers, registrationHandlers } from "./registrationHandlers.ts"
import { type ResendVerificationHandlers, resendVerificationHandlers } from "./resendVerificationHandlers.ts"

export type AccountHandlers = RegistrationHandlers & ResendVerificationHandlers & PasswordResetHandlers & ProfileHandlers

/** Sign-up, verification, password reset and profile changes, for `registerContract`. */
export function accountHandlers(deps: AccountDeps): AccountHandlers {
  return {
    ...registrationHandlers(deps),
    ...resendVerificationHandlers(deps),
    ...passwordResetHandlers(deps),
    ...profileHandlers(deps)
  }
}
