import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { confirmationRule, passwordRule } from "../../domain/Validation.ts"
import { detailOf, failureHint, isFailure, isTransientFailure } from "../shared/apiResult.ts"
import {
  changeField,
  type FieldErrors,
  type FieldRules,
  type FieldValues,
  firstInvalidField,
  isAccepted,
  isRefusal,
  isValidForm,
  MISSING_TOKEN_MESSAGE,
  validateFields
} from "../shared/formFields.ts"
import { notProvided } from "../shared/notProvided.ts"

export const RESET_LINK_FAILED_MESSAGE = "This password reset link could not be checked. Please try again."
export const RESET_FAILED_MESSAGE = "Your password could not be updated. Please try again."
export const RESET_LINK_UNREACHABLE_MESSAGE = "Your reset link could not be checked just now."

export type PasswordResetField = "password" | "confirmPassword"
/** The fields in the order the form shows them. */
export const PASSWORD_RESET_FIELDS: ReadonlyArray<PasswordResetField> = ["password", "confirmPassword"]

export type PasswordResetEvent =
  | { readonly type: "passwordReset.change"; readonly field: PasswordResetField; readonly value: string }
  | { readonly type: "passwordReset.submit" }
  /** ask again after the link's check went unanswered */
  | { readonly type: "passwordReset.retry" }

interface PasswordResetContext {
  readonly token: string
  /** The account being reset, as the token check names it. */
  readonly email: string
  readonly values: FieldValues<PasswordResetField>
  readonly fieldErrors: FieldErrors<PasswordResetField>
  readonly alert: string | null
  readonly detail: string | null
}

type TokenAnswer = CallResult<"verifyPasswordReset"> | undefined
type ResetAnswer = CallResult<"resetPassword"> | undefined

const rules: FieldRules<PasswordResetField> = {
  password: ({ password }) => passwordRule(password),
  confirmPassword: ({ password, confirmPassword }) => confirmationRule(password)(confirmPassword)
}

/** SPEC §4 password reset: token check, then the form, then error or complete. */
export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { readonly token: string }
  },
  actors: {
    checkToken: fromPromise<TokenAnswer, { readonly token: string }>(notProvided("checkToken")),
    resetPassword: fromPromise<ResetAnswer, { readonly token: string; readonly newPassword: string }>(notProvided("resetPassword"))
  },
  guards: {
    hasToken: ({ context }) => context.token !== "",
    transient: (_, answer: TokenAnswer) => isTransientFailure(answer),
    tokenValid: (_, answer: TokenAnswer) => isAccepted(answer) && !isFailure(answer) && answer.email !== undefined,
    accepted: (_, answer: ResetAnswer) => isAccepted(answer),
    refused: (_, answer: ResetAnswer) => isRefusal(answer),
    isValid: ({ context }) => isValidForm(rules, context.values)
  },
  actions: {
    keepEmail: assign((_, answer: TokenAnswer) => ({ email: isFailure(answer) ? "" : (answer.email ?? "") })),
    fail: assign((_, params: { readonly detail: string }) => ({ detail: params.detail })),
    setField: assign(({ context }, params: { readonly field: PasswordResetField; readonly value: string }) =>
      changeField(context, params.field, params.value)
    ),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: validateFields(rules, context.values), alert: null })),
    // the rules passed, so no message of an earlier submit still applies
    clearMessages: assign({ fieldErrors: {}, alert: null }),
    showAlert: assign((_, answer: ResetAnswer) => ({ alert: detailOf(answer) ?? RESET_FAILED_MESSAGE })),
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
        ],
        onError: {
          target: "unreachable",
          actions: { type: "fail", params: { detail: `${RESET_LINK_UNREACHABLE_MESSAGE} ${failureHint(undefined)}` } }
        }
      }
    },
    // the link is not known to be bad: the server did not say, so the page offers to ask again
    unreachable: { on: { "passwordReset.retry": { target: "checkingToken" } } },
    form: {
      initial: "editing",
      states: {
        editing: {
          on: {
            "passwordReset.change": { actions: { type: "setField", params: ({ event }) => event } },
            "passwordReset.submit": [{ guard: "isValid", target: "submitting", actions: "clearMessages" }, { actions: "showFieldErrors" }]
          }
        },
        submitting: {
          tags: ["busy"],
          invoke: {
            src: "resetPassword",
            input: ({ context }) => ({ token: context.token, newPassword: context.values.password }),
            onDone: [
              {
                guard: { type: "accepted", params: ({ event }) => event.output },
                target: "#passwordReset.complete",
                actions: "clearPasswords"
              },
              {
                guard: { type: "refused", params: ({ event }) => event.output },
                target: "#passwordReset.error",
                actions: { type: "fail", params: ({ event }) => ({ detail: detailOf(event.output) ?? RESET_FAILED_MESSAGE }) }
              },
              { target: "editing", actions: { type: "showAlert", params: ({ event }) => event.output } }
            ],
            onError: { target: "editing", actions: { type: "showAlert", params: () => undefined } }
          }
        }
      }
    },
    complete: { type: "final" },
    error: { type: "final" }
  }
})

export type PasswordResetSnapshot = SnapshotFrom<typeof passwordResetMachine>
export type PasswordResetStep = "checkingToken" | "form" | "complete" | "error" | "unreachable"

export const selectPasswordResetStep = (snapshot: PasswordResetSnapshot): PasswordResetStep =>
  snapshot.matches("form")
    ? "form"
    : snapshot.matches("complete")
      ? "complete"
      : snapshot.matches("error")
        ? "error"
        : snapshot.matches("unreachable")
          ? "unreachable"
          : "checkingToken"
export const selectResetEmail = (snapshot: PasswordResetSnapshot): string => snapshot.context.email
export const selectPasswordResetValues = (snapshot: PasswordResetSnapshot) => snapshot.context.values
export const selectPasswordResetErrors = (snapshot: PasswordResetSnapshot) => snapshot.context.fieldErrors
export const selectPasswordResetAlert = (snapshot: PasswordResetSnapshot): string | null => snapshot.context.alert
export const selectPasswordResetDetail = (snapshot: PasswordResetSnapshot): string | null => snapshot.context.detail
export const selectIsResettingPassword = (snapshot: PasswordResetSnapshot): boolean => snapshot.matches({ form: "submitting" })
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: PasswordResetSnapshot): PasswordResetField | undefined =>
  firstInvalidField(PASSWORD_RESET_FIELDS, snapshot.context.fieldErrors)
