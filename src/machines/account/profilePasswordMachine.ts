import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { Answer } from "../../domain/contract/answer.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { confirmationRule, passwordRule } from "../../domain/Validation.ts"
import { isAccepted, refusedForNow, resultCodeOf } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { fromAnswer } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"
import { INCORRECT_PASSWORD_MESSAGE, SUCCESS_TITLE, TRY_AGAIN_MESSAGE } from "./profileDetailsMachine.ts"

// SPEC §8, exact strings
export const PASSWORD_UPDATED_MESSAGE = "Password has been updated!"
export const PASSWORD_UPDATE_FAILED_TITLE = "Failed to update password."

export type ProfilePasswordField = "currentPassword" | "newPassword" | "confirmPassword"
/** The fields in the order the form shows them. */
export const PROFILE_PASSWORD_FIELDS: ReadonlyArray<ProfilePasswordField> = ["currentPassword", "newPassword", "confirmPassword"]

export type ProfilePasswordEvent = form.Event<"profilePassword", ProfilePasswordField>
type ProfilePasswordContext = form.Context<ProfilePasswordField>

const EMPTY: form.Values<ProfilePasswordField> = { currentPassword: "", newPassword: "", confirmPassword: "" }

const rules: form.Rules<ProfilePasswordField> = {
  currentPassword: ({ currentPassword }) => passwordRule(currentPassword),
  newPassword: ({ newPassword }) => passwordRule(newPassword),
  confirmPassword: ({ newPassword, confirmPassword }) => confirmationRule(newPassword)(confirmPassword)
}

export const PASSWORD_UPDATED: NotificationContent = { tone: "success", title: SUCCESS_TITLE, message: PASSWORD_UPDATED_MESSAGE }

export const passwordFailure = (answer: Answer<"updatePassword">): NotificationContent => ({
  tone: "error",
  title: PASSWORD_UPDATE_FAILED_TITLE,
  message:
    refusedForNow(answer) ??
    (resultCodeOf(answer) === ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH ? INCORRECT_PASSWORD_MESSAGE : TRY_AGAIN_MESSAGE)
})

/** The 'Update password' form of /profile: what happened is told as a notification. */
export const profilePasswordMachine = setup({
  types: {
    context: {} as ProfilePasswordContext,
    events: {} as ProfilePasswordEvent
  },
  actors: {
    updatePassword: fromPromise<Answer<"updatePassword">, { readonly currentPassword: string; readonly newPassword: string }>(
      notProvided("updatePassword")
    )
  },
  guards: {
    isValid: ({ context }) => form.isValid(rules, context.values),
    accepted: (_, answer: Answer<"updatePassword">) => isAccepted(answer)
  },
  actions: {
    notify: (_, _params: NotificationContent) => {},
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
    // SPEC §4: account forms reset their password fields on success
    clearPasswords: assign({ values: EMPTY, fieldErrors: {} })
  }
}).createMachine({
  id: "profilePassword",
  context: { values: EMPTY, fieldErrors: {}, alert: null },
  initial: "editing",
  states: {
    editing: form.editing<ProfilePasswordEvent>()({ change: "profilePassword.change", submit: "profilePassword.submit" }),
    submitting: form.submission<ProfilePasswordContext>()({
      src: "updatePassword",
      input: ({ context }) => ({ currentPassword: context.values.currentPassword, newPassword: context.values.newPassword }),
      accepted: { target: "editing", actions: ["clearPasswords", { type: "notify", params: PASSWORD_UPDATED }] },
      failed: { target: "editing", actions: { type: "notify", params: fromAnswer(passwordFailure) } }
    })
  }
})

export type ProfilePasswordSnapshot = SnapshotFrom<typeof profilePasswordMachine>

export const selectProfilePasswordValues = (snapshot: ProfilePasswordSnapshot) => snapshot.context.values
export const selectProfilePasswordErrors = (snapshot: ProfilePasswordSnapshot) => snapshot.context.fieldErrors
export const selectIsUpdatingPassword = (snapshot: ProfilePasswordSnapshot): boolean => snapshot.hasTag("busy")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: ProfilePasswordSnapshot): ProfilePasswordField | undefined =>
  form.firstInvalid(PROFILE_PASSWORD_FIELDS, snapshot.context.fieldErrors)
