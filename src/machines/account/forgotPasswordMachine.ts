import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { EMAIL_MESSAGE, emailRule, normaliseEmail } from "../../domain/Validation.ts"
import { detailOf, isFailure } from "../shared/apiResult.ts"
import {
  changeField,
  type FieldErrors,
  type FieldRules,
  type FieldValues,
  firstInvalidField,
  isValidForm,
  validateFields
} from "../shared/formFields.ts"
import { notProvided } from "../shared/notProvided.ts"

/** Shown after every request the server answered, so the page never tells who has an account. */
export const RESET_REQUESTED_MESSAGE = "If the email is registered, reset instructions will be sent."
export const RESET_REQUEST_FAILED_MESSAGE = "Your request could not be sent. Please try again."

export type ForgotPasswordField = "email"
const FORGOT_PASSWORD_FIELDS: ReadonlyArray<ForgotPasswordField> = ["email"]

export type ForgotPasswordEvent =
  | { readonly type: "forgotPassword.change"; readonly field: ForgotPasswordField; readonly value: string }
  | { readonly type: "forgotPassword.submit" }

interface ForgotPasswordContext {
  readonly values: FieldValues<ForgotPasswordField>
  readonly fieldErrors: FieldErrors<ForgotPasswordField>
  readonly alert: string | null
}

type ResetRequestAnswer = CallResult<"createPasswordReset"> | undefined

// SPEC §5: this page's message has the final period; the invite page's variant lacks it.
const rules: FieldRules<ForgotPasswordField> = { email: ({ email }) => emailRule(EMAIL_MESSAGE)(email) }

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent
  },
  actors: {
    requestReset: fromPromise<ResetRequestAnswer, { readonly email: string }>(notProvided("requestReset"))
  },
  guards: {
    isValid: ({ context }) => isValidForm(rules, context.values),
    /** Any endpoint answer counts: only an unsent request (network, rate limit) is worth retrying. */
    answered: (_, answer: ResetRequestAnswer) => !isFailure(answer)
  },
  actions: {
    setField: assign(({ context }, params: { readonly field: ForgotPasswordField; readonly value: string }) =>
      changeField(context, params.field, params.value)
    ),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: validateFields(rules, context.values), alert: null })),
    // the rules passed, so no message of an earlier submit still applies
    clearMessages: assign({ fieldErrors: {}, alert: null }),
    showAlert: assign((_, answer: ResetRequestAnswer) => ({ alert: detailOf(answer) ?? RESET_REQUEST_FAILED_MESSAGE }))
  }
}).createMachine({
  id: "forgotPassword",
  context: { values: { email: "" }, fieldErrors: {}, alert: null },
  initial: "editing",
  states: {
    editing: {
      on: {
        "forgotPassword.change": { actions: { type: "setField", params: ({ event }) => event } },
        "forgotPassword.submit": [{ guard: "isValid", target: "submitting", actions: "clearMessages" }, { actions: "showFieldErrors" }]
      }
    },
    submitting: {
      tags: ["busy"],
      invoke: {
        src: "requestReset",
        input: ({ context }) => ({ email: normaliseEmail(context.values.email) }),
        onDone: [
          { guard: { type: "answered", params: ({ event }) => event.output }, target: "sent" },
          { target: "editing", actions: { type: "showAlert", params: ({ event }) => event.output } }
        ],
        onError: { target: "editing", actions: { type: "showAlert", params: () => undefined } }
      }
    },
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
  firstInvalidField(FORGOT_PASSWORD_FIELDS, snapshot.context.fieldErrors)
