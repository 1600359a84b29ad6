import { assign, fromPromise, type SnapshotFrom, sendParent, setup, spawnChild, stopChild } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { emailRule, normaliseEmail } from "../../domain/Validation.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { resendVerificationMachine } from "./resendVerificationMachine.ts"

export const PASSWORD_REQUIRED_MESSAGE = "Please enter your password."
export const LOGIN_FAILED_MESSAGE = "Sign in failed. Please try again."

export type LoginField = "email" | "password"
export type Credentials = form.Values<LoginField>
/** The fields in the order the form shows them. */
const LOGIN_FIELDS: ReadonlyArray<LoginField> = ["email", "password"]

export type LoginFormEvent = form.Event<"login", LoginField>

/** Sent to the parent (the session) once the server has handed out a token. */
export interface LoginSucceeded {
  readonly type: "login.succeeded"
  readonly token: string
}

interface LoginFormContext extends form.Context<LoginField> {
  readonly token: string | null
}

const RESEND_ID = "resendVerification"

const rules: form.Rules<LoginField> = {
  email: ({ email }) => emailRule(email),
  password: ({ password }) => (password === "" ? PASSWORD_REQUIRED_MESSAGE : undefined)
}

const tokenOf = (answer: Answer<"login">): string | null =>
  answer._tag === "ok" && answer.body.success && answer.body.resultCode === ResultCode.SUCCESS && answer.body.token !== undefined
    ? answer.body.token || null
    : null

export const loginFormMachine = setup({
  types: {
    context: {} as LoginFormContext,
    events: {} as LoginFormEvent,
    children: {} as { resendVerification: "resendVerification" }
  },
  actors: {
    /** Emails are lower-cased before they leave the form (SPEC §5). */
    login: fromPromise<Answer<"login">, Credentials>(notProvided("login")),
    resendVerification: resendVerificationMachine
  },
  guards: {
    isValid: ({ context }) => form.isValid(rules, context.values),
    accepted: (_, answer: Answer<"login">) => tokenOf(answer) !== null,
    /** The right password for an address not verified yet: the one refusal the page can do something about. */
    refused: (_, answer: Answer<"login">) => answer._tag === "ok" && answer.body.resultCode === ResultCode.EMAIL_NOT_VERIFIED
  },
  actions: {
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
    // the right password for an unverified address: the page offers to mail its link again
    offerResend: spawnChild("resendVerification", {
      id: RESEND_ID,
      input: ({ context }) => ({ email: normaliseEmail(context.values.email) })
    }),
    withdrawResend: stopChild(RESEND_ID),
    keepToken: assign((_, answer: Answer<"login">) => ({ token: tokenOf(answer) })),
    showFailure: assign((_, answer: Answer<"login">) => ({ alert: detailOf(answer) ?? LOGIN_FAILED_MESSAGE })),
    notifyParent: sendParent(({ context }): LoginSucceeded => ({ type: "login.succeeded", token: context.token ?? "" }))
  }
}).createMachine({
  id: "loginForm",
  context: { values: { email: "", password: "" }, fieldErrors: {}, alert: null, token: null },
  initial: "editing",
  states: {
    editing: form.editing<LoginFormEvent>()({ change: "login.change", submit: "login.submit" }),
    submitting: {
      ...form.submission<LoginFormContext>()({
        src: "login",
        input: ({ context }) => ({ email: normaliseEmail(context.values.email), password: context.values.password }),
        accepted: { target: "succeeded", actions: [{ type: "keepToken", params: answerOf }, "notifyParent"] },
        refused: { target: "editing", actions: [{ type: "showFailure", params: answerOf }, "offerResend"] },
        failed: { target: "editing", actions: { type: "showFailure", params: answerOf } }
      }),
      // an earlier answer's offer is for the address as it was then
      entry: "withdrawResend"
    },
    succeeded: { type: "final" }
  }
})

export type LoginFormSnapshot = SnapshotFrom<typeof loginFormMachine>

export const selectEmail = (snapshot: LoginFormSnapshot): string => snapshot.context.values.email
export const selectPassword = (snapshot: LoginFormSnapshot): string => snapshot.context.values.password
export const selectFieldErrors = (snapshot: LoginFormSnapshot): form.Errors<LoginField> => snapshot.context.fieldErrors
export const selectLoginError = (snapshot: LoginFormSnapshot): string | null => snapshot.context.alert
/** "Send the verification email again", offered while the last answer was "Email not verified". */
export const selectResendVerification = (snapshot: LoginFormSnapshot) => snapshot.children.resendVerification
export const selectIsSubmitting = (snapshot: LoginFormSnapshot): boolean => snapshot.hasTag("busy")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: LoginFormSnapshot): LoginField | undefined =>
  form.firstInvalid(LOGIN_FIELDS, snapshot.context.fieldErrors)
