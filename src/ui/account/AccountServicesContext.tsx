import { createContext, useContext } from "react"
import type { emailChangeMachine } from "../../machines/account/emailChangeMachine.ts"
import type { forgotPasswordMachine } from "../../machines/account/forgotPasswordMachine.ts"
import type { passwordResetMachine } from "../../machines/account/passwordResetMachine.ts"
import type { profileDetailsMachine } from "../../machines/account/profileDetailsMachine.ts"
import type { profilePasswordMachine } from "../../machines/account/profilePasswordMachine.ts"
import type { registrationMachine } from "../../machines/account/registrationMachine.ts"
import type { verifyEmailMachine } from "../../machines/account/verifyEmailMachine.ts"

/** The account pages' machines, already wired to their adapters; each page starts its own actor. */
export interface AccountServices {
  readonly registration: typeof registrationMachine
  readonly verifyEmail: typeof verifyEmailMachine
  readonly forgotPassword: typeof forgotPasswordMachine
  readonly passwordReset: typeof passwordResetMachine
  readonly emailChange: typeof emailChangeMachine
  readonly profileDetails: typeof profileDetailsMachine
  readonly profilePassword: typeof profilePasswordMachine
}

export const AccountServicesContext = createContext<AccountServices | null>(null)

export const useAccountServices = (): AccountServices => {
  const services = useContext(AccountServicesContext)
  if (services === null) throw new Error("useAccountServices must be used inside AccountServicesContext")
  return services
}
