import type { AccountDeps } from "./accountDeps.ts"
import { type PasswordResetHandlers, passwordResetHandlers } from "./passwordResetHandlers.ts"
import { type ProfileHandlers, profileHandlers } from "./profileHandlers.ts"
import { type RegistrationHandlers, registrationHandlers } from "./registrationHandlers.ts"

export type AccountHandlers = RegistrationHandlers & PasswordResetHandlers & ProfileHandlers

/** Sign-up, verification, password reset and profile changes, for `registerContract`. */
export function accountHandlers(deps: AccountDeps): AccountHandlers {
  return {
    ...registrationHandlers(deps),
    ...passwordResetHandlers(deps),
    ...profileHandlers(deps)
  }
}
