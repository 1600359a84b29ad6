import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { confirmationRule, passwordRule } from "../../domain/Validation.ts"
import { isFailure, refusedForNow } from "../shared/apiResult.ts"
import {
  changeField,
  type FieldErrors,
  type FieldRules,
  type FieldValues,
  firstInvalidField,
  isAccepted,
  isValidForm,
  validateFields
} from "../shared/formFields.ts"
import { notProvided } from "../shared/notProvided.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"
import { INCORRECT_PASSWORD_MESSAGE, SUCCESS_TITLE, TRY_AGAIN_MESSAGE } from "./profileDetailsMachine.ts"

// SPEC §8, exact strings
export const PASSWORD_UPDATED_MESSAGE = "Password has been updated!"
export const PASSWORD_UPDATE_FAILED_TITLE = "Failed to update password."

export type ProfilePasswordField = "currentPassword" | "newPassword" | "confirmPassword"
/** The fields in the order the form shows them. */
export const PROFILE_PASSWORD_FIELDS: ReadonlyArray<ProfilePasswordField> = ["currentPassword", "newPassword", "confirmPassword"]

export type ProfilePasswordEvent =
  | { readonly type: "profilePassword.change"; readonly field: ProfilePasswordField; readonly value: string }
  | { readonly type: "profilePassword.submit" }

interface ProfilePasswordContext {
  readonly values: FieldValues<ProfilePasswordField>
  readonly fieldErrors: FieldErrors<ProfilePasswordField>
}

type UpdateAnswer = CallResult<"updatePassword"> | undefined

const EMPTY: FieldValues<ProfilePasswordField> = { currentPassword: "", newPassword: "", confirmPassword: "" }

const rules: FieldRules<ProfilePasswordField> = {
  currentPassword: ({ currentPassword }) => passwordRule(currentPassword),
  newPassword: ({ newPassword }) => passwordRule(newPassword),
  confirmPassword: ({ newPassword, confirmPassword }) => confirmationRule(newPassword)(confirmPassword)
}

export const PASSWORD_UPDATED: NotificationContent = { tone: "success", title: SUCCESS_TITLE, message: PASSWORD_UPDATED_MESSAGE }

export const passwordFailure = (answer: UpdateAnswer): NotificationContent => ({
  tone: "error",
  title: PASSWORD_UPDATE_FAILED_TITLE,
  message:
    refusedForNow(answer) ??
    (!isFailure(answer) && answer.resultCode === ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH
      ? INCORRECT_PASSWORD_MESSAGE
      : TRY_AGAIN_MESSAGE)
})

/** The 'Update password' form of /profile. */
export const profilePasswordMachine = setup({
  types: {
    context: {} as ProfilePasswordContext,
    events: {} as ProfilePasswordEvent
  },
  actors: {
    updatePassword: fromPromise<UpdateAnswer, { readonly currentPassword: string; readonly newPassword: string }>(
      notProvided("updatePassword")
    )
  },
  guards: {
    isValid: ({ context }) => isValidForm(rules, context.values),
    accepted: (_, answer: UpdateAnswer) => isAccepted(answer)
  },
  actions: {
    notify: (_, _params: NotificationContent) => {},
    setField: assign(({ context }, params: { readonly field: ProfilePasswordField; readonly value: string }) =>
      changeField(context, params.field, params.value)
    ),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: validateFields(rules, context.values) })),
    // the rules passed, so no message of an earlier submit still applies
    clearFieldErrors: assign({ fieldErrors: {} }),
    // SPEC §4: account forms reset their password fields on success
    clearPasswords: assign({ values: EMPTY, fieldErrors: {} })
  }
}).createMachine({
  id: "profilePassword",
  context: { values: EMPTY, fieldErrors: {} },
  initial: "editing",
  states: {
    editing: {
      on: {
        "profilePassword.change": { actions: { type: "setField", params: ({ event }) => event } },
        "profilePassword.submit": [{ guard: "isValid", target: "submitting", actions: "clearFieldErrors" }, { actions: "showFieldErrors" }]
      }
    },
    submitting: {
      tags: ["busy"],
      invoke: {
        src: "updatePassword",
        input: ({ context }) => ({ currentPassword: context.values.currentPassword, newPassword: context.values.newPassword }),
        onDone: [
          {
            guard: { type: "accepted", params: ({ event }) => event.output },
            target: "editing",
            actions: ["clearPasswords", { type: "notify", params: PASSWORD_UPDATED }]
          },
          { target: "editing", actions: { type: "notify", params: ({ event }) => passwordFailure(event.output) } }
        ],
        onError: { target: "editing", actions: { type: "notify", params: () => passwordFailure(undefined) } }
      }
    }
  }
})

export type ProfilePasswordSnapshot = SnapshotFrom<typeof profilePasswordMachine>

export const selectProfilePasswordValues = (snapshot: ProfilePasswordSnapshot) => snapshot.context.values
export const selectProfilePasswordErrors = (snapshot: ProfilePasswordSnapshot) => snapshot.context.fieldErrors
export const selectIsUpdatingPassword = (snapshot: ProfilePasswordSnapshot): boolean => snapshot.hasTag("busy")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: ProfilePasswordSnapshot): ProfilePasswordField | undefined =>
  firstInvalidField(PROFILE_PASSWORD_FIELDS, snapshot.context.fieldErrors)
