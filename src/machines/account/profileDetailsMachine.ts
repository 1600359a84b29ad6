import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { Answer } from "../../domain/contract/answer.ts"
import type { BodyOf } from "../../domain/contract/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { emailRule, normaliseEmail, passwordLengthRule, usernameRule } from "../../domain/Validation.ts"
import { isAccepted, refusedForNow, resultCodeOf } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
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

export type ProfileDetailsEvent = form.Event<"profileDetails", ProfileDetailsField>

type ProfileDetailsContext = form.Context<ProfileDetailsField>

const rules: form.Rules<ProfileDetailsField> = {
  username: ({ username }) => usernameRule(username),
  email: ({ email }) => emailRule(email),
  password: ({ password }) => (password === "" ? PASSWORD_REQUIRED_MESSAGE : passwordLengthRule(password))
}

/** What the user is told after the server answered (SPEC §8). */
export const updateOutcome = (answer: Answer<"updateUsernameAndEmail">, email: string): ReadonlyArray<NotificationContent> => {
  if (answer._tag !== "ok" || !isAccepted(answer)) {
    const wrongPassword = resultCodeOf(answer) === ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH
    const message = refusedForNow(answer) ?? (wrongPassword ? INCORRECT_PASSWORD_MESSAGE : TRY_AGAIN_MESSAGE)
    return [{ tone: "error", title: UPDATE_FAILED_TITLE, message }]
  }
  const outcome: Array<NotificationContent> = []
  if (answer.body.emailUpdatePending) outcome.push({ tone: "success", title: SUCCESS_TITLE, message: verificationSentMessage(email) })
  if (answer.body.usernameUpdated) outcome.push({ tone: "success", title: SUCCESS_TITLE, message: USERNAME_UPDATED_MESSAGE })
  return outcome.length === 0 ? [NOTHING_CHANGED] : outcome
}

const outcomeParams = ({ context, event }: { context: ProfileDetailsContext; event: { output: Answer<"updateUsernameAndEmail"> } }) =>
  updateOutcome(event.output, normaliseEmail(context.values.email))

/** The 'Update email or username' form of /profile; it stays on the page after each answer. */
export const profileDetailsMachine = setup({
  types: {
    context: {} as ProfileDetailsContext,
    events: {} as ProfileDetailsEvent,
    input: {} as { readonly username: string; readonly email: string }
  },
  actors: {
    updateDetails: fromPromise<Answer<"updateUsernameAndEmail">, BodyOf<"updateUsernameAndEmail">>(notProvided("updateDetails"))
  },
  guards: {
    isValid: ({ context }) => form.isValid(rules, context.values),
    accepted: (_, answer: Answer<"updateUsernameAndEmail">) => isAccepted(answer),
    usernameUpdated: (_, answer: Answer<"updateUsernameAndEmail">) =>
      isAccepted(answer) && answer._tag === "ok" && answer.body.usernameUpdated
  },
  actions: {
    /** One answer may carry two pieces of news (a pending email and a new username). */
    notify: (_, _params: ReadonlyArray<NotificationContent>) => {},
    /** The session keeps the old username in its user info until it reads it again. */
    refreshUser: () => {},
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
    // SPEC §4: account forms reset their password fields on success
    clearPassword: assign(({ context }) => ({ values: { ...context.values, password: "" } }))
  }
}).createMachine({
  id: "profileDetails",
  context: ({ input }) => ({ values: { username: input.username, email: input.email, password: "" }, fieldErrors: {}, alert: null }),
  initial: "editing",
  states: {
    editing: form.editing<ProfileDetailsEvent>()({ change: "profileDetails.change", submit: "profileDetails.submit" }),
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
        ]
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
  form.firstInvalid(PROFILE_DETAILS_FIELDS, snapshot.context.fieldErrors)
