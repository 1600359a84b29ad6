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
export const EMAIL_CHANGE_CANCELLED_TITLE = "Email change cancelled"
export const emailKeptMessage = (email: string): string => `Your account keeps ${email}; the confirmation link no longer works.`
export const NOTHING_CHANGED: NotificationContent = {
  tone: "info",
  title: "Nothing to update",
  message: "The username and email are the ones you already have."
}

export type ProfileDetailsField = "username" | "email" | "password"
/** The fields in the order the form shows them. */
export const PROFILE_DETAILS_FIELDS: ReadonlyArray<ProfileDetailsField> = ["username", "email", "password"]

export type ProfileDetailsEvent = form.Event<"profileDetails", ProfileDetailsField> | { readonly type: "profileDetails.cancelEmailChange" }

interface ProfileDetailsContext extends form.Context<ProfileDetailsField> {
  /** The username and email the account has now (a new email only once it is confirmed). */
  readonly saved: { readonly username: string; readonly email: string }
  /** A new address waiting for its mailed confirmation. */
  readonly pendingEmail: string | null
}

const rules: form.Rules<ProfileDetailsField> = {
  username: ({ username }) => usernameRule(username),
  email: ({ email }) => emailRule(email),
  password: ({ password }) => (password === "" ? PASSWORD_REQUIRED_MESSAGE : passwordLengthRule(password))
}

/** What the user is told after the server answered (SPEC §8). */
export const updateOutcome = (answer: Answer<"updateUsernameAndEmail">, email: string): ReadonlyArray<NotificationContent> => {
  if (answer._tag !== "ok" || !isAccepted(answer)) {
    const wrongPassword = resultCodeOf(answer) === ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH
    // the server's reason (an address already in use) goes under SPEC's words, on a line of its own
    const reason = answer._tag === "ok" && !wrongPassword ? answer.body.detail : undefined
    const message =
      refusedForNow(answer) ??
      (wrongPassword
        ? INCORRECT_PASSWORD_MESSAGE
        : reason === undefined || reason === ""
          ? TRY_AGAIN_MESSAGE
          : `${TRY_AGAIN_MESSAGE}\n${reason}`)
    return [{ tone: "error", title: UPDATE_FAILED_TITLE, message }]
  }
  const outcome: Array<NotificationContent> = []
  if (answer.body.emailUpdatePending) outcome.push({ tone: "success", title: SUCCESS_TITLE, message: verificationSentMessage(email) })
  if (answer.body.usernameUpdated) outcome.push({ tone: "success", title: SUCCESS_TITLE, message: USERNAME_UPDATED_MESSAGE })
  return outcome.length === 0 ? [NOTHING_CHANGED] : outcome
}

type Done = { context: ProfileDetailsContext; event: { output: Answer<"updateUsernameAndEmail"> } }

const outcomeParams = ({ context, event }: Done) => updateOutcome(event.output, normaliseEmail(context.values.email))

const cancelOutcomeParams = ({ context, event }: Done): ReadonlyArray<NotificationContent> =>
  isAccepted(event.output)
    ? [{ tone: "success", title: EMAIL_CHANGE_CANCELLED_TITLE, message: emailKeptMessage(context.saved.email) }]
    : updateOutcome(event.output, context.saved.email)

const passwordRules: form.Rules<ProfileDetailsField> = { password: rules.password }

/** The 'Update email or username' form of /profile; it stays on the page after each answer. */
export const profileDetailsMachine = setup({
  types: {
    context: {} as ProfileDetailsContext,
    events: {} as ProfileDetailsEvent,
    input: {} as { readonly username: string; readonly email: string; readonly pendingEmail?: string | undefined }
  },
  actors: {
    updateDetails: fromPromise<Answer<"updateUsernameAndEmail">, BodyOf<"updateUsernameAndEmail">>(notProvided("updateDetails"))
  },
  guards: {
    isValid: ({ context }) => form.isValid(rules, context.values),
    /** Withdrawing a change asks only for the password: the address sent is the current one. */
    passwordGiven: ({ context }) => form.isValid(passwordRules, context.values),
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
    showPasswordError: form.showFieldErrors(passwordRules),
    forgetPending: assign({ pendingEmail: null }),
    // SPEC §4: account forms reset their password fields on success
    clearPassword: assign(({ context }) => ({ values: { ...context.values, password: "" } })),
    /**
     * What the server now holds: the new username at once; a new email only as pending, so the
     * field goes back to the address the account still has. The current address sent again
     * withdraws a pending change.
     */
    keepSaved: assign(({ context }, answer: Answer<"updateUsernameAndEmail">) => {
      if (answer._tag !== "ok") return {}
      const username = context.values.username.trim()
      const email = normaliseEmail(context.values.email)
      const pending = answer.body.emailUpdatePending ? email : email === context.saved.email ? null : context.pendingEmail
      return {
        saved: { ...context.saved, username },
        pendingEmail: pending,
        values: { ...context.values, username, email: context.saved.email }
      }
    })
  }
}).createMachine({
  id: "profileDetails",
  context: ({ input }) => ({
    values: { username: input.username, email: input.email, password: "" },
    fieldErrors: {},
    alert: null,
    saved: { username: input.username, email: input.email },
    pendingEmail: input.pendingEmail ?? null
  }),
  initial: "editing",
  states: {
    editing: {
      on: {
        ...form.editing<ProfileDetailsEvent>()({ change: "profileDetails.change", submit: "profileDetails.submit" }).on,
        "profileDetails.cancelEmailChange": [
          { guard: "passwordGiven", target: "cancelling", actions: "clearMessages" },
          { actions: "showPasswordError" }
        ]
      }
    },
    /** The current address sent again, with the saved username, so nothing else changes. */
    cancelling: {
      tags: ["busy"],
      invoke: {
        src: "updateDetails",
        input: ({ context }) => ({ username: context.saved.username, email: context.saved.email, password: context.values.password }),
        onDone: [
          {
            guard: { type: "accepted", params: ({ event }) => event.output },
            target: "editing",
            actions: [{ type: "notify", params: cancelOutcomeParams }, "forgetPending", "clearPassword"]
          },
          { target: "editing", actions: { type: "notify", params: cancelOutcomeParams } }
        ]
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
            actions: [
              { type: "notify", params: outcomeParams },
              { type: "keepSaved", params: ({ event }) => event.output },
              "clearPassword",
              "refreshUser"
            ]
          },
          {
            guard: { type: "accepted", params: ({ event }) => event.output },
            target: "editing",
            actions: [
              { type: "notify", params: outcomeParams },
              { type: "keepSaved", params: ({ event }) => event.output },
              "clearPassword"
            ]
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
/** The new address waiting for its mailed confirmation, if any. */
export const selectPendingEmail = (snapshot: ProfileDetailsSnapshot): string | null => snapshot.context.pendingEmail
export const selectIsCancellingEmailChange = (snapshot: ProfileDetailsSnapshot): boolean => snapshot.matches("cancelling")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: ProfileDetailsSnapshot): ProfileDetailsField | undefined =>
  form.firstInvalid(PROFILE_DETAILS_FIELDS, snapshot.context.fieldErrors)
