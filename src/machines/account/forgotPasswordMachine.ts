import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { emailRule, normaliseEmail } from "../../domain/Validation.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"

/** Shown after every request the server answered, so the page never tells who has an account. */
export const RESET_REQUESTED_MESSAGE = "If the email is registered, reset instructions will be sent."
export const RESET_REQUEST_FAILED_MESSAGE = "Your request could not be sent. Please try again."

export type ForgotPasswordField = "email"
const FORGOT_PASSWORD_FIELDS: ReadonlyArray<ForgotPasswordField> = ["email"]

export type ForgotPasswordEvent = form.Event<"forgotPassword", ForgotPasswordField>
type ForgotPasswordContext = form.Context<ForgotPasswordField>

// SPEC §5: this page's message has the final period; the invite page's variant lacks it.
const rules: form.Rules<ForgotPasswordField> = { email: ({ email }) => emailRule(email) }

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent
  },
  actors: {
    requestReset: fromPromise<Answer<"createPasswordReset">, { readonly email: string }>(notProvided("requestReset"))
  },
  guards: {
    isValid: ({ context }) => form.isValid(rules, context.values),
    /** Any endpoint answer counts: only an unsent request (network, rate limit) is worth retrying. */
    accepted: (_, answer: Answer<"createPasswordReset">) => answer._tag === "ok"
  },
  actions: {
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
    showAlert: assign((_, answer: Answer<"createPasswordReset">) => ({ alert: detailOf(answer) ?? RESET_REQUEST_FAILED_MESSAGE }))
  }
}).createMachine({
  id: "forgotPassword",
  context: { values: { email: "" }, fieldErrors: {}, alert: null },
  initial: "editing",
  states: {
    editing: form.editing<ForgotPasswordEvent>()({ change: "forgotPassword.change", submit: "forgotPassword.submit" }),
    submitting: form.submission<ForgotPasswordContext>()({
      src: "requestReset",
      input: ({ context }) => ({ email: normaliseEmail(context.values.email) }),
      accepted: { target: "sent" },
      failed: { target: "editing", actions: { type: "showAlert", params: answerOf } }
    }),
    sent: { type: "final" }
  }
})

export type ForgotPasswordSnapshot = SnapshotFrom<typeof forgotPasswordMachine>

export const selectForgotPasswordValues = (snapshot: ForgotPasswordSnapshot) => snapshot.context.values
export const selectForgotPasswordErrors = (snapshot: ForgotPasswordSnapshot) => snapshot.context.fieldErrors
export const selectForgotPasswordAlert = (snapshot: ForgotPasswordSnapshot): string | null => snapshot.context.alert
export const selectIsRequestingReset = (snapshot: ForgotPasswordSnapshot): boolean => snapshot.hasTag("busy")
export const selectIsResetRequested = (snapshot: ForgotPasswordSnapshot): boolean => snapshot.matches("sent")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: ForgotPasswordSnapshot): ForgotPasswordField | undefined =>
  form.firstInvalid(FORGOT_PASSWORD_FIELDS, snapshot.context.fieldErrors)
