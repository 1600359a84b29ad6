import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { BodyOf, CallResult } from "../../domain/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import {
  confirmationRule,
  EMAIL_MESSAGE,
  emailRule,
  isEmail,
  normaliseEmail,
  passwordRule,
  usernameFromEmail
} from "../../domain/Validation.ts"
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
  validateFields
} from "../shared/formFields.ts"
import { notProvided } from "../shared/notProvided.ts"

export const REGISTRATION_FAILED_MESSAGE = "Your account could not be created. Please try again."
export const INVITE_CHECK_FAILED_MESSAGE = "Your invite could not be checked. Please try again."
export const INVITE_UNREACHABLE_MESSAGE = "Your invite could not be checked just now."
/** The server's detail for this case is a code word, not a sentence for people. */
export const EMAIL_TAKEN_DETAIL = "EMAIL_ALREADY_REGISTERED"
export const EMAIL_TAKEN_MESSAGE = "An account with this email address already exists. Sign in instead."

export type RegistrationField = "email" | "password" | "confirmPassword"
/** The fields in the order the form shows them. */
export const REGISTRATION_FIELDS: ReadonlyArray<RegistrationField> = ["email", "password", "confirmPassword"]

export type RegistrationEvent =
  | { readonly type: "registration.change"; readonly field: RegistrationField; readonly value: string }
  | { readonly type: "registration.submit" }
  /** ask again after the invite check went unanswered */
  | { readonly type: "registration.retry" }

/** Why the flow ended in its error state, and whether signing in is the way out. */
export interface RegistrationFailure {
  readonly detail: string
  readonly emailTaken: boolean
}

interface RegistrationContext {
  readonly invite: string
  readonly values: FieldValues<RegistrationField>
  readonly fieldErrors: FieldErrors<RegistrationField>
  /** A try that may work if sent again (network, rate limit); the form stays. */
  readonly alert: string | null
  readonly failure: RegistrationFailure | null
  readonly registeredEmail: string | null
}

type InviteAnswer = CallResult<"invitation"> | undefined
type RegisterAnswer = CallResult<"register"> | undefined

// SPEC §5: the registration page's email message keeps its final period.
const rules: FieldRules<RegistrationField> = {
  email: ({ email }) => emailRule(EMAIL_MESSAGE)(email),
  password: ({ password }) => passwordRule(password),
  confirmPassword: ({ password, confirmPassword }) => confirmationRule(password)(confirmPassword)
}

const failureOf = (answer: InviteAnswer | RegisterAnswer, fallback: string): RegistrationFailure => {
  const emailTaken =
    !isFailure(answer) && (answer.resultCode === ResultCode.EMAIL_ALREADY_REGISTERED || answer.detail === EMAIL_TAKEN_DETAIL)
  return { detail: emailTaken ? EMAIL_TAKEN_MESSAGE : (detailOf(answer) ?? fallback), emailTaken }
}

/** SPEC §4 registration: invite check, then the form, then complete or error. */
export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as { readonly invite: string }
  },
  actors: {
    checkInvite: fromPromise<InviteAnswer, { readonly token: string }>(notProvided("checkInvite")),
    register: fromPromise<RegisterAnswer, BodyOf<"register">>(notProvided("register"))
  },
  guards: {
    transient: (_, answer: InviteAnswer) => isTransientFailure(answer),
    isValid: ({ context }) => isValidForm(rules, context.values),
    accepted: (_, answer: InviteAnswer | RegisterAnswer) => isAccepted(answer),
    refused: (_, answer: RegisterAnswer) => isRefusal(answer)
  },
  actions: {
    setField: assign(({ context }, params: { readonly field: RegistrationField; readonly value: string }) =>
      changeField(context, params.field, params.value)
    ),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: validateFields(rules, context.values), alert: null })),
    // the rules passed, so no message of an earlier submit still applies
    clearMessages: assign({ fieldErrors: {}, alert: null }),
    showAlert: assign((_, answer: RegisterAnswer) => ({ alert: detailOf(answer) ?? REGISTRATION_FAILED_MESSAGE })),
    fail: assign((_, params: { readonly answer: InviteAnswer | RegisterAnswer; readonly fallback: string }) => ({
      failure: failureOf(params.answer, params.fallback)
    })),
    failForNow: assign((_, params: { readonly answer: InviteAnswer }) => ({
      failure: { detail: `${INVITE_UNREACHABLE_MESSAGE} ${failureHint(params.answer)}`, emailTaken: false }
    })),
    keepRegisteredEmail: assign(({ context }) => ({ registeredEmail: normaliseEmail(context.values.email) }))
  }
}).createMachine({
  id: "registration",
  context: ({ input }) => ({
    invite: input.invite,
    values: { email: "", password: "", confirmPassword: "" },
    fieldErrors: {},
    alert: null,
    failure: null,
    registeredEmail: null
  }),
  initial: "checkingInvite",
  states: {
    checkingInvite: {
      tags: ["busy"],
      invoke: {
        src: "checkInvite",
        input: ({ context }) => ({ token: context.invite }),
        onDone: [
          { guard: { type: "accepted", params: ({ event }) => event.output }, target: "form" },
          {
            guard: { type: "transient", params: ({ event }) => event.output },
            target: "unreachable",
            actions: { type: "failForNow", params: ({ event }) => ({ answer: event.output }) }
          },
          {
            target: "error",
            actions: { type: "fail", params: ({ event }) => ({ answer: event.output, fallback: INVITE_CHECK_FAILED_MESSAGE }) }
          }
        ],
        onError: { target: "unreachable", actions: { type: "failForNow", params: { answer: undefined } } }
      }
    },
    // the invite is not known to be bad: the server did not say, so the page offers to ask again
    unreachable: { on: { "registration.retry": { target: "checkingInvite" } } },
    form: {
      initial: "editing",
      states: {
        editing: {
          on: {
            "registration.change": { actions: { type: "setField", params: ({ event }) => event } },
            "registration.submit": [{ guard: "isValid", target: "submitting", actions: "clearMessages" }, { actions: "showFieldErrors" }]
          }
        },
        submitting: {
          tags: ["busy"],
          invoke: {
            src: "register",
            input: ({ context }) => {
              const email = normaliseEmail(context.values.email)
              return { username: usernameFromEmail(email), email, password: context.values.password, invitationToken: context.invite }
            },
            onDone: [
              {
                guard: { type: "accepted", params: ({ event }) => event.output },
                target: "#registration.complete",
                actions: "keepRegisteredEmail"
              },
              {
                guard: { type: "refused", params: ({ event }) => event.output },
                target: "#registration.error",
                actions: { type: "fail", params: ({ event }) => ({ answer: event.output, fallback: REGISTRATION_FAILED_MESSAGE }) }
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

export type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>
export type RegistrationStep = "checkingInvite" | "form" | "complete" | "error" | "unreachable"

export const selectRegistrationStep = (snapshot: RegistrationSnapshot): RegistrationStep =>
  snapshot.matches("form")
    ? "form"
    : snapshot.matches("complete")
      ? "complete"
      : snapshot.matches("error")
        ? "error"
        : snapshot.matches("unreachable")
          ? "unreachable"
          : "checkingInvite"
export const selectRegistrationValues = (snapshot: RegistrationSnapshot) => snapshot.context.values
export const selectRegistrationErrors = (snapshot: RegistrationSnapshot) => snapshot.context.fieldErrors
export const selectRegistrationAlert = (snapshot: RegistrationSnapshot): string | null => snapshot.context.alert
export const selectRegistrationFailure = (snapshot: RegistrationSnapshot): RegistrationFailure | null => snapshot.context.failure
export const selectRegisteredEmail = (snapshot: RegistrationSnapshot): string | null => snapshot.context.registeredEmail
export const selectIsRegistering = (snapshot: RegistrationSnapshot): boolean => snapshot.matches({ form: "submitting" })
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: RegistrationSnapshot): RegistrationField | undefined =>
  firstInvalidField(REGISTRATION_FIELDS, snapshot.context.fieldErrors)
/** The username the account will get, once the email typed so far is a whole address. */
export const selectDerivedUsername = (snapshot: RegistrationSnapshot): string => {
  const email = normaliseEmail(snapshot.context.values.email)
  return isEmail(email) ? usernameFromEmail(email) : ""
}
