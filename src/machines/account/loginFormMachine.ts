import { assign, fromPromise, type SnapshotFrom, sendParent, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { emailRule, normaliseEmail } from "../../domain/Validation.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"

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
    events: {} as LoginFormEvent
  },
  actors: {
    /** Emails are lower-cased before they leave the form (SPEC §5). */
    login: fromPromise<Answer<"login">, Credentials>(notProvided("login"))
  },
  guards: {
    isValid: ({ context }) => form.isValid(rules, context.values),
    accepted: (_, answer: Answer<"login">) => tokenOf(answer) !== null
  },
  actions: {
    setField: form.setField(),
    showFieldErrors: form.showFieldErrors(rules),
    clearMessages: form.clearMessages(),
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
    submitting: form.submission<LoginFormContext>()({
      src: "login",
      input: ({ context }) => ({ email: normaliseEmail(context.values.email), password: context.values.password }),
      accepted: { target: "succeeded", actions: [{ type: "keepToken", params: answerOf }, "notifyParent"] },
      failed: { target: "editing", actions: { type: "showFailure", params: answerOf } }
    }),
    succeeded: { type: "final" }
  }
})

export type LoginFormSnapshot = SnapshotFrom<typeof loginFormMachine>

export const selectEmail = (snapshot: LoginFormSnapshot): string => snapshot.context.values.email
export const selectPassword = (snapshot: LoginFormSnapshot): string => snapshot.context.values.password
export const selectFieldErrors = (snapshot: LoginFormSnapshot): form.Errors<LoginField> => snapshot.context.fieldErrors
export const selectLoginError = (snapshot: LoginFormSnapshot): string | null => snapshot.context.alert
export const selectIsSubmitting = (snapshot: LoginFormSnapshot): boolean => snapshot.hasTag("busy")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: LoginFormSnapshot): LoginField | undefined =>
  form.firstInvalid(LOGIN_FIELDS, snapshot.context.fieldErrors)
