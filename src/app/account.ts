import { fromPromise } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import { emailChangeMachine } from "../machines/account/emailChangeMachine.ts"
import { forgotPasswordMachine } from "../machines/account/forgotPasswordMachine.ts"
import type { NotificationContent } from "../machines/shell/notificationsMachine.ts"
import { passwordResetMachine } from "../machines/account/passwordResetMachine.ts"
import { profileDetailsMachine } from "../machines/account/profileDetailsMachine.ts"
import { profilePasswordMachine } from "../machines/account/profilePasswordMachine.ts"
import { registrationMachine } from "../machines/account/registrationMachine.ts"
import { verifyEmailMachine } from "../machines/account/verifyEmailMachine.ts"
import type { AccountServices } from "../ui/account/AccountServicesContext.tsx"

export interface AccountDeps {
  readonly callApi: CallApi
  readonly notify: (content: NotificationContent) => void
  /** Asks the session to read the user info again; a no-op without a session. */
  readonly refreshUser: () => void
}

/** The account pages' machines joined to the http adapter, the notifications and the session. */
export const createAccountServices = ({ callApi, notify, refreshUser }: AccountDeps): AccountServices => ({
  registration: registrationMachine.provide({
    actors: {
      checkInvite: fromPromise(({ input, signal }) => callApi("invitation", { params: { token: input.token }, signal })),
      register: fromPromise(({ input, signal }) => callApi("register", { body: input, signal }))
    }
  }),
  verifyEmail: verifyEmailMachine.provide({
    actors: { verify: fromPromise(({ input, signal }) => callApi("verifyEmail", { body: input, signal })) }
  }),
  forgotPassword: forgotPasswordMachine.provide({
    actors: { requestReset: fromPromise(({ input, signal }) => callApi("createPasswordReset", { body: input, signal })) }
  }),
  passwordReset: passwordResetMachine.provide({
    actors: {
      checkToken: fromPromise(({ input, signal }) => callApi("verifyPasswordReset", { body: input, signal })),
      resetPassword: fromPromise(({ input, signal }) => callApi("resetPassword", { body: input, signal }))
    }
  }),
  emailChange: emailChangeMachine.provide({
    actors: {
      confirm: fromPromise(({ input, signal }) => callApi("confirmEmailChange", { body: { email_token: input.token }, signal }))
    },
    actions: { emailChanged: () => refreshUser() }
  }),
  profileDetails: profileDetailsMachine.provide({
    actors: { updateDetails: fromPromise(({ input, signal }) => callApi("updateUsernameAndEmail", { body: input, signal })) },
    actions: {
      notify: (_, notifications) => notifications.forEach(notify),
      refreshUser: () => refreshUser()
    }
  }),
  profilePassword: profilePasswordMachine.provide({
    actors: { updatePassword: fromPromise(({ input, signal }) => callApi("updatePassword", { body: input, signal })) },
    actions: { notify: (_, content) => notify(content) }
  })
})
