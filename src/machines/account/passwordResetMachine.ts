import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { confirmationRule, passwordRule } from "../../domain/Validation.ts"
import { failureHint, isAccepted, isTransientFailure } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
import { MISSING_TOKEN_MESSAGE } from "../shared/mailedLink.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { stepOf } from "../shared/stepOf.ts"

export const RESET_LINK_FAILED_MESSAGE = "This password reset link could not be checked. Please try again."
export const RESET_FAILED_MESSAGE = "Your password could not be updated. Please try again."
export const RESET_LINK_UNREACHABLE_MESSAGE = "Your reset link could not be checked just now."

export type PasswordResetField = "password" | "confirmPassword"
/** The fields in the order the form shows them. */
export const PASSWORD_RESET_FIELDS: ReadonlyArray<PasswordResetField> = ["password", "confirmPassword"]

export type PasswordResetEvent =
  | form.Event<"passwordReset", PasswordResetField>
  /** ask again after the link's check went unanswered */
  | { readonly type: "passwordReset.retry" }

interface PasswordResetContext extends form.Context<PasswordResetField> {
  readonly token: string
  /** The account being reset, as the token check names it. */
  readonly email: string
  readonly detail: string | null
}

const rules: form.Rules<PasswordResetField> = {
  password: ({ password }) => passwordRule(password),
  confirmPassword: ({ password, confirmPassword }) => confirmationRule(password)(confirmPassword)
}

const emailOf = (answer: Answer<"verifyPasswordReset">): string => (answer._tag === "ok" ? (answer.body.email ?? "") : "")

/** SPEC §4 password reset: token check, then the form, then error or complete. */
export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { readonly token: string }
  },
  actors: {
    checkToken: fromPromise<Answer<"verifyPasswordReset">, { readonly token: string }>(notProvided("checkToken")),
    resetPassword: fromPromise<Answer<"resetPassword">, { readonly token: string; readonly newPassword: string }>(
      notProvided("resetPassword")
    )
  },
  guards: {
    hasToken: ({ context }) => context.token !== "",
    transient: (_, answer: Answer<"verifyPasswordReset">) => isTransientFailure(answer),
    tokenValid: (_, answer: Answer<"verifyPasswordReset">) => isAccepted(answer) && emailOf(answer) !== "",
    accepted: (_, answer: Answer<"resetPassword">) => isAccepted(answer),
    /** the server looked at the request and said no: sending it again would not help */
    refused: (_, answer: Answer<"resetPassword">) => answer._tag === "ok",
    isValid: ({ context }) => form.isValid(rules, context.values)
  },
  actions: {
    keepEmail: assign((_, answer: Answer<"verifyPasswordReset">) => ({ email: emailOf(answer) })),
    fail: assign((_, params: { readonly detail: string }) => ({ detail: params.detail })),
    failReset: assign((_, answer: Answer<"resetPassword">) => ({ detail: detailOf(answer) ?? RESET_FAILED_MESSAGE })),
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
    showAlert: assign((_, answer: Answer<"resetPassword">) => ({ alert: detailOf(answer) ?? RESET_FAILED_MESSAGE })),
    // SPEC §4: account forms reset their password fields on success
    clearPasswords: assign({ values: { password: "", confirmPassword: "" } })
  }
}).createMachine({
  id: "passwordReset",
  context: ({ input }) => ({
    token: input.token.trim(),
    email: "",
    values: { password: "", confirmPassword: "" },
    fieldErrors: {},
    alert: null,
    detail: null
  }),
  initial: "start",
  states: {
    start: {
      always: [
        { guard: "hasToken", target: "checkingToken" },
        { target: "error", actions: { type: "fail", params: { detail: MISSING_TOKEN_MESSAGE } } }
      ]
    },
    checkingToken: {
      tags: ["busy"],
      invoke: {
        src: "checkToken",
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: "tokenValid", params: ({ event }) => event.output },
            target: "form",
            actions: { type: "keepEmail", params: ({ event }) => event.output }
          },
          {
            guard: { type: "transient", params: ({ event }) => event.output },
            target: "unreachable",
            actions: { type: "fail", params: ({ event }) => ({ detail: `${RESET_LINK_UNREACHABLE_MESSAGE} ${failureHint(event.output)}` }) }
          },
          {
            target: "error",
            actions: { type: "fail", params: ({ event }) => ({ detail: detailOf(event.output) ?? RESET_LINK_FAILED_MESSAGE }) }
          }
        ]
      }
    },
    // the link is not known to be bad: the server did not say, so the page offers to ask again
    unreachable: { on: { "passwordReset.retry": { target: "checkingToken" } } },
    form: {
      initial: "editing",
      states: {
        editing: form.editing<PasswordResetEvent>()({ change: "passwordReset.change", submit: "passwordReset.submit" }),
        submitting: form.submission<PasswordResetContext>()({
          src: "resetPassword",
          input: ({ context }) => ({ token: context.token, newPassword: context.values.password }),
          accepted: { target: "#passwordReset.complete", actions: "clearPasswords" },
          refused: { target: "#passwordReset.error", actions: { type: "failReset", params: answerOf } },
          failed: { target: "editing", actions: { type: "showAlert", params: answerOf } }
        })
      }
    },
    complete: { type: "final" },
    error: { type: "final" }
  }
})

export type PasswordResetSnapshot = SnapshotFrom<typeof passwordResetMachine>
export type PasswordResetStep = "checkingToken" | "form" | "complete" | "error" | "unreachable"

export const selectPasswordResetStep = (snapshot: PasswordResetSnapshot): PasswordResetStep =>
  stepOf(snapshot, ["form", "complete", "error", "unreachable"], "checkingToken")
export const selectResetEmail = (snapshot: PasswordResetSnapshot): string => snapshot.context.email
export const selectPasswordResetValues = (snapshot: PasswordResetSnapshot) => snapshot.context.values
export const selectPasswordResetErrors = (snapshot: PasswordResetSnapshot) => snapshot.context.fieldErrors
export const selectPasswordResetAlert = (snapshot: PasswordResetSnapshot): string | null => snapshot.context.alert
export const selectPasswordResetDetail = (snapshot: PasswordResetSnapshot): string | null => snapshot.context.detail
export const selectIsResettingPassword = (snapshot: PasswordResetSnapshot): boolean => snapshot.matches({ form: "submitting" })
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: PasswordResetSnapshot): PasswordResetField | undefined =>
  form.firstInvalid(PASSWORD_RESET_FIELDS, snapshot.context.fieldErrors)
