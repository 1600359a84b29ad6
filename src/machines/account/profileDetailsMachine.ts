import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { BodyOf, CallResult } from "../../domain/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { EMAIL_MESSAGE, emailRule, normaliseEmail, passwordLengthRule, usernameRule } from "../../domain/Validation.ts"
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
import { PASSWORD_REQUIRED_MESSAGE } from "./loginFormMachine.ts"

// SPEC §8, exact strings
export const UPDATE_FAILED_TITLE = "Failed to update"
export const INCORRECT_PASSWORD_MESSAGE = "Incorrect password"
export const TRY_AGAIN_MESSAGE = "Please try again."
export const SUCCESS_TITLE = "Success!"
export const USERNAME_UPDATED_MESSAGE = "Username updated!"
export const verificationSentMessage = (email: string): string => `Please follow the verification instructions sent to ${email}`
export const NOTHING_CHANGED: NotificationContent = {
  tone: "info",
  title: "Nothing to update",
  message: "The username and email are the ones you already have."
}

export type ProfileDetailsField = "username" | "email" | "password"
/** The fields in the order the form shows them. */
export const PROFILE_DETAILS_FIELDS: ReadonlyArray<ProfileDetailsField> = ["username", "email", "password"]

export type ProfileDetailsEvent =
  | { readonly type: "profileDetails.change"; readonly field: ProfileDetailsField; readonly value: string }
  | { readonly type: "profileDetails.submit" }

interface ProfileDetailsContext {
  readonly values: FieldValues<ProfileDetailsField>
  readonly fieldErrors: FieldErrors<ProfileDetailsField>
}

type UpdateAnswer = CallResult<"updateUsernameAndEmail"> | undefined
type UpdateRequest = BodyOf<"updateUsernameAndEmail">

const rules: FieldRules<ProfileDetailsField> = {
  username: ({ username }) => usernameRule(username),
  email: ({ email }) => emailRule(EMAIL_MESSAGE)(email),
  password: ({ password }) => (password === "" ? PASSWORD_REQUIRED_MESSAGE : passwordLengthRule(password))
}

/** What the user is told after the server answered (SPEC §8). */
export const updateOutcome = (answer: UpdateAnswer, email: string): ReadonlyArray<NotificationContent> => {
  if (!isAccepted(answer) || isFailure(answer)) {
    const wrongPassword = !isFailure(answer) && answer.resultCode === ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH
    const message = refusedForNow(answer) ?? (wrongPassword ? INCORRECT_PASSWORD_MESSAGE : TRY_AGAIN_MESSAGE)
    return [{ tone: "error", title: UPDATE_FAILED_TITLE, message }]
  }
  const outcome: Array<NotificationContent> = []
  if (answer.emailUpdatePending) outcome.push({ tone: "success", title: SUCCESS_TITLE, message: verificationSentMessage(email) })
  if (answer.usernameUpdated) outcome.push({ tone: "success", title: SUCCESS_TITLE, message: USERNAME_UPDATED_MESSAGE })
  return outcome.length === 0 ? [NOTHING_CHANGED] : outcome
}

const outcomeParams = ({ context, event }: { context: ProfileDetailsContext; event: { output: UpdateAnswer } }) =>
  updateOutcome(event.output, normaliseEmail(context.values.email))

/** The 'Update email or username' form of /profile; it stays on the page after each answer. */
export const profileDetailsMachine = setup({
  types: {
    context: {} as ProfileDetailsContext,
    events: {} as ProfileDetailsEvent,
    input: {} as { readonly username: string; readonly email: string }
  },
  actors: {
    updateDetails: fromPromise<UpdateAnswer, UpdateRequest>(notProvided("updateDetails"))
  },
  guards: {
    isValid: ({ context }) => isValidForm(rules, context.values),
    accepted: (_, answer: UpdateAnswer) => isAccepted(answer),
    usernameUpdated: (_, answer: UpdateAnswer) => isAccepted(answer) && !isFailure(answer) && answer.usernameUpdated
  },
  actions: {
    /** One answer may carry two pieces of news (a pending email and a new username). */
    notify: (_, _params: ReadonlyArray<NotificationContent>) => {},
    /** The session keeps the old username in its user info until it reads it again. */
    refreshUser: () => {},
    setField: assign(({ context }, params: { readonly field: ProfileDetailsField; readonly value: string }) =>
      changeField(context, params.field, params.value)
    ),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: validateFields(rules, context.values) })),
    // the rules passed, so no message of an earlier submit still applies
    clearFieldErrors: assign({ fieldErrors: {} }),
    // SPEC §4: account forms reset their password fields on success
    clearPassword: assign(({ context }) => ({ values: { ...context.values, password: "" } }))
  }
}).createMachine({
  id: "profileDetails",
  context: ({ input }) => ({ values: { username: input.username, email: input.email, password: "" }, fieldErrors: {} }),
  initial: "editing",
  states: {
    editing: {
      on: {
        "profileDetails.change": { actions: { type: "setField", params: ({ event }) => event } },
        "profileDetails.submit": [{ guard: "isValid", target: "submitting", actions: "clearFieldErrors" }, { actions: "showFieldErrors" }]
      }
    },
    submitting: {
      tags: ["busy"],
      invoke: {
        src: "updateDetails",
        input: ({ context }) => ({
          username: context.values.username.trim(),
          email: normaliseEmail(context.values.email),
          password: context.values.password
        }),
        onDone: [
          {
            guard: { type: "usernameUpdated", params: ({ event }) => event.output },
            target: "editing",
            actions: [{ type: "notify", params: outcomeParams }, "clearPassword", "refreshUser"]
          },
          {
            guard: { type: "accepted", params: ({ event }) => event.output },
            target: "editing",
            actions: [{ type: "notify", params: outcomeParams }, "clearPassword"]
          },
          { target: "editing", actions: { type: "notify", params: outcomeParams } }
        ],
        onError: { target: "editing", actions: { type: "notify", params: () => updateOutcome(undefined, "") } }
      }
    }
  }
})

export type ProfileDetailsSnapshot = SnapshotFrom<typeof profileDetailsMachine>

export const selectProfileDetailsValues = (snapshot: ProfileDetailsSnapshot) => snapshot.context.values
export const selectProfileDetailsErrors = (snapshot: ProfileDetailsSnapshot) => snapshot.context.fieldErrors
export const selectIsUpdatingDetails = (snapshot: ProfileDetailsSnapshot): boolean => snapshot.hasTag("busy")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: ProfileDetailsSnapshot): ProfileDetailsField | undefined =>
  firstInvalidField(PROFILE_DETAILS_FIELDS, snapshot.context.fieldErrors)
