import { assign, fromPromise, type SnapshotFrom, sendParent, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { EMAIL_MESSAGE, isEmail, normaliseEmail } from "../../domain/Validation.ts"
import { detailOf, isFailure } from "../shared/apiResult.ts"
import { firstInvalidField } from "../shared/formFields.ts"
import { notProvided } from "../shared/notProvided.ts"

export const PASSWORD_REQUIRED_MESSAGE = "Please enter your password."
export const LOGIN_FAILED_MESSAGE = "Sign in failed. Please try again."

export interface Credentials {
  readonly email: string
  readonly password: string
}

export type LoginField = keyof Credentials
/** The fields in the order the form shows them. */
export const LOGIN_FIELDS: ReadonlyArray<LoginField> = ["email", "password"]

export type LoginFormEvent =
  | { readonly type: "login.change"; readonly field: LoginField; readonly value: string }
  | { readonly type: "login.submit" }

/** Sent to the parent (the session) once the server has handed out a token. */
export interface LoginSucceeded {
  readonly type: "login.succeeded"
  readonly token: string
}

interface LoginFormContext extends Credentials {
  readonly fieldErrors: Partial<Record<LoginField, string>>
  readonly error: string | null
  readonly token: string | null
}

type LoginAnswer = CallResult<"login"> | undefined

const validate = ({ email, password }: Credentials): Partial<Record<LoginField, string>> => ({
  ...(isEmail(email.trim()) ? {} : { email: EMAIL_MESSAGE }),
  ...(password === "" ? { password: PASSWORD_REQUIRED_MESSAGE } : {})
})

const tokenOf = (answer: LoginAnswer): string | null =>
  !isFailure(answer) && answer.success && answer.resultCode === ResultCode.SUCCESS && answer.token !== undefined && answer.token !== ""
    ? answer.token
    : null

export const loginFormMachine = setup({
  types: {
    context: {} as LoginFormContext,
    events: {} as LoginFormEvent
  },
  actors: {
    /** Emails are lower-cased before they leave the form (SPEC §5). */
    login: fromPromise<LoginAnswer, Credentials>(notProvided("login"))
  },
  guards: {
    isValid: ({ context }) => Object.keys(validate(context)).length === 0,
    hasToken: (_, answer: LoginAnswer) => tokenOf(answer) !== null
  },
  actions: {
    setField: assign(({ context, event }) => {
      if (event.type !== "login.change") return {}
      const fieldErrors = { ...context.fieldErrors }
      delete fieldErrors[event.field]
      return { [event.field]: event.value, fieldErrors }
    }),
    showFieldErrors: assign(({ context }) => ({ fieldErrors: validate(context), error: null })),
    clearErrors: assign({ fieldErrors: {}, error: null }),
    keepToken: assign((_, answer: LoginAnswer) => ({ token: tokenOf(answer) })),
    showFailure: assign((_, answer: LoginAnswer) => ({ error: detailOf(answer) ?? LOGIN_FAILED_MESSAGE })),
    notifyParent: sendParent(({ context }): LoginSucceeded => ({ type: "login.succeeded", token: context.token ?? "" }))
  }
}).createMachine({
  id: "loginForm",
  context: { email: "", password: "", fieldErrors: {}, error: null, token: null },
  initial: "editing",
  states: {
    editing: {
      on: {
        "login.change": { actions: "setField" },
        "login.submit": [{ guard: "isValid", target: "submitting", actions: "clearErrors" }, { actions: "showFieldErrors" }]
      }
    },
    submitting: {
      tags: ["busy"],
      invoke: {
        src: "login",
        input: ({ context }) => ({ email: normaliseEmail(context.email), password: context.password }),
        onDone: [
          {
            guard: { type: "hasToken", params: ({ event }) => event.output },
            target: "succeeded",
            actions: [{ type: "keepToken", params: ({ event }) => event.output }, "notifyParent"]
          },
          { target: "editing", actions: { type: "showFailure", params: ({ event }) => event.output } }
        ],
        onError: { target: "editing", actions: { type: "showFailure", params: () => undefined } }
      }
    },
    succeeded: { type: "final" }
  }
})

export type LoginFormSnapshot = SnapshotFrom<typeof loginFormMachine>

export const selectEmail = (snapshot: LoginFormSnapshot): string => snapshot.context.email
export const selectPassword = (snapshot: LoginFormSnapshot): string => snapshot.context.password
export const selectFieldErrors = (snapshot: LoginFormSnapshot): Partial<Record<LoginField, string>> => snapshot.context.fieldErrors
export const selectLoginError = (snapshot: LoginFormSnapshot): string | null => snapshot.context.error
export const selectIsSubmitting = (snapshot: LoginFormSnapshot): boolean => snapshot.hasTag("busy")
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: LoginFormSnapshot): LoginField | undefined =>
  firstInvalidField(LOGIN_FIELDS, snapshot.context.fieldErrors)
