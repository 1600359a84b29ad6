import { type ActorRefFrom, fromPromise, sendTo } from "xstate"
import { isMobileDevice } from "../adapters/device/device.ts"
import type { CallApi } from "../adapters/http/http.ts"
import { emailChangeMachine } from "../machines/account/emailChangeMachine.ts"
import { forgotPasswordMachine } from "../machines/account/forgotPasswordMachine.ts"
import { passwordResetMachine } from "../machines/account/passwordResetMachine.ts"
import { profileDetailsMachine } from "../machines/account/profileDetailsMachine.ts"
import { profilePasswordMachine } from "../machines/account/profilePasswordMachine.ts"
import { registrationMachine } from "../machines/account/registrationMachine.ts"
import { signInLinkMachine } from "../machines/account/signInLinkMachine.ts"
import { verifyEmailMachine } from "../machines/account/verifyEmailMachine.ts"
import type { BootActor } from "../machines/shell/bootMachine.ts"
import type { notificationsMachine } from "../machines/shell/notificationsMachine.ts"
import { notifyVia } from "./notifyVia.ts"

export interface AccountDeps {
  readonly callApi: CallApi
  /** The notifications actor, told of each outcome once the page machine's transition is done. */
  readonly notifications: ActorRefFrom<typeof notificationsMachine>
  /** Boot, which has the session read the user's details again. */
  readonly boot: BootActor
  /** Sent with a sign-in, as the login form does. */
  readonly isMobile?: () => boolean
}

/** The account pages' machines joined to the http adapter, the notifications and the session. */
export const createAccount = ({ callApi, notifications, boot, isMobile = isMobileDevice }: AccountDeps) => {
  return {
    registration: registrationMachine.provide({
      actors: {
        checkInvite: fromPromise(({ input, signal }) => callApi("invitation", { params: { token: input.token }, signal })),
        register: fromPromise(({ input, signal }) => callApi("register", { body: input, signal }))
      }
    }),
    verifyEmail: verifyEmailMachine.provide({
      actors: { verify: fromPromise(({ input, signal }) => callApi("verifyEmail", { body: input, signal })) }
    }),
    signInLink: signInLinkMachine.provide({
      actors: {
        signIn: fromPromise(({ input, signal }) => callApi("signInWithLink", { body: { ...input, isMobile: isMobile() }, signal }))
      },
      actions: { signedIn: sendTo(boot, (_, params) => ({ type: "login.succeeded", token: params.token })) }
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
      actions: { emailChanged: sendTo(boot, { type: "session.refreshUser" }) }
    }),
    profileDetails: profileDetailsMachine.provide({
      actors: { updateDetails: fromPromise(({ input, signal }) => callApi("updateUsernameAndEmail", { body: input, signal })) },
      actions: {
        notify: notifyVia(notifications),
        refreshUser: sendTo(boot, { type: "session.refreshUser" })
      }
    }),
    profilePassword: profilePasswordMachine.provide({
      actors: { updatePassword: fromPromise(({ input, signal }) => callApi("updatePassword", { body: input, signal })) },
      actions: { notify: notifyVia(notifications) }
    })
  }
}
