import { createContext, useContext } from "react"
import type { emailChangeMachine } from "../../machines/emailChangeMachine.ts"
import type { forgotPasswordMachine } from "../../machines/forgotPasswordMachine.ts"
import type { passwordResetMachine } from "../../machines/passwordResetMachine.ts"
import type { profileDetailsMachine } from "../../machines/profileDetailsMachine.ts"
import type { profilePasswordMachine } from "../../machines/profilePasswordMachine.ts"
import type { registrationMachine } from "../../machines/registrationMachine.ts"
import type { verifyEmailMachine } from "../../machines/verifyEmailMachine.ts"

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
