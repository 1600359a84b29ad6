import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import type { BodyOf } from "../../domain/contract/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { confirmationRule, emailRule, isEmail, normaliseEmail, passwordRule, usernameFromEmail } from "../../domain/Validation.ts"
import { failureHint, isAccepted, isTransientFailure, resultCodeOf } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { stepOf } from "../shared/stepOf.ts"

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
  | form.Event<"registration", RegistrationField>
  /** ask again after the invite check went unanswered */
  | { readonly type: "registration.retry" }

/** Why the flow ended in its error state, and whether signing in is the way out. */
export interface RegistrationFailure {
  readonly detail: string
  readonly emailTaken: boolean
}

interface RegistrationContext extends form.Context<RegistrationField> {
  readonly invite: string
  readonly failure: RegistrationFailure | null
  readonly registeredEmail: string | null
}

type InviteOrRegistration = Answer<"invitation"> | Answer<"register">

// SPEC §5: the registration page's email message keeps its final period.
const rules: form.Rules<RegistrationField> = {
  email: ({ email }) => emailRule(email),
  password: ({ password }) => passwordRule(password),
  confirmPassword: ({ password, confirmPassword }) => confirmationRule(password)(confirmPassword)
}

const failureOf = (answer: InviteOrRegistration, fallback: string): RegistrationFailure => {
  const detail = detailOf(answer)
  const emailTaken = resultCodeOf(answer) === ResultCode.EMAIL_ALREADY_REGISTERED || detail === EMAIL_TAKEN_DETAIL
  return { detail: emailTaken ? EMAIL_TAKEN_MESSAGE : (detail ?? fallback), emailTaken }
}

/** SPEC §4 registration: invite check, then the form, then complete or error. */
export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as { readonly invite: string }
  },
  actors: {
    checkInvite: fromPromise<Answer<"invitation">, { readonly token: string }>(notProvided("checkInvite")),
    register: fromPromise<Answer<"register">, BodyOf<"register">>(notProvided("register"))
  },
  guards: {
    transient: (_, answer: Answer<"invitation">) => isTransientFailure(answer),
    isValid: ({ context }) => form.isValid(rules, context.values),
    accepted: (_, answer: InviteOrRegistration) => isAccepted(answer),
    /** the server looked at the request and said no: sending it again would not help */
    refused: (_, answer: Answer<"register">) => answer._tag === "ok"
  },
  actions: {
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
    showAlert: assign((_, answer: Answer<"register">) => ({ alert: detailOf(answer) ?? REGISTRATION_FAILED_MESSAGE })),
    fail: assign((_, params: { readonly answer: InviteOrRegistration; readonly fallback: string }) => ({
      failure: failureOf(params.answer, params.fallback)
    })),
    failRegistration: assign((_, answer: Answer<"register">) => ({ failure: failureOf(answer, REGISTRATION_FAILED_MESSAGE) })),
    failForNow: assign((_, params: { readonly answer: Answer<"invitation"> }) => ({
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
        ]
      }
    },
    // the invite is not known to be bad: the server did not say, so the page offers to ask again
    unreachable: { on: { "registration.retry": { target: "checkingInvite" } } },
    form: {
      initial: "editing",
      states: {
        editing: form.editing<RegistrationEvent>()({ change: "registration.change", submit: "registration.submit" }),
        submitting: form.submission<RegistrationContext>()({
          src: "register",
          input: ({ context }) => {
            const email = normaliseEmail(context.values.email)
            return { username: usernameFromEmail(email), email, password: context.values.password, invitationToken: context.invite }
          },
          accepted: { target: "#registration.complete", actions: "keepRegisteredEmail" },
          refused: { target: "#registration.error", actions: { type: "failRegistration", params: answerOf } },
          failed: { target: "editing", actions: { type: "showAlert", params: answerOf } }
        })
      }
    },
    complete: { type: "final" },
    error: { type: "final" }
  }
})

export type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>
export type RegistrationStep = "checkingInvite" | "form" | "complete" | "error" | "unreachable"

export const selectRegistrationStep = (snapshot: RegistrationSnapshot): RegistrationStep =>
  stepOf(snapshot, ["form", "complete", "error", "unreachable"], "checkingInvite")
export const selectRegistrationValues = (snapshot: RegistrationSnapshot) => snapshot.context.values
export const selectRegistrationErrors = (snapshot: RegistrationSnapshot) => snapshot.context.fieldErrors
export const selectRegistrationAlert = (snapshot: RegistrationSnapshot): string | null => snapshot.context.alert
export const selectRegistrationFailure = (snapshot: RegistrationSnapshot): RegistrationFailure | null => snapshot.context.failure
export const selectRegisteredEmail = (snapshot: RegistrationSnapshot): string | null => snapshot.context.registeredEmail
export const selectIsRegistering = (snapshot: RegistrationSnapshot): boolean => snapshot.matches({ form: "submitting" })
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: RegistrationSnapshot): RegistrationField | undefined =>
  form.firstInvalid(REGISTRATION_FIELDS, snapshot.context.fieldErrors)
/** The username the account will get, once the email typed so far is a whole address. */
export const selectDerivedUsername = (snapshot: RegistrationSnapshot): string => {
  const email = normaliseEmail(snapshot.context.values.email)
  return isEmail(email) ? usernameFromEmail(email) : ""
}
