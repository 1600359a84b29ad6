import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, setup } from "xstate"
import { refused } from "../../../src/domain/contract/answer.ts"
import {
  type Credentials,
  LOGIN_FAILED_MESSAGE,
  type LoginSucceeded,
  loginFormMachine,
  PASSWORD_REQUIRED_MESSAGE,
  selectFieldErrors,
  selectFirstInvalidField,
  selectIsSubmitting,
  selectLoginError
} from "../../../src/machines/account/loginFormMachine.ts"
import { type Reply, toAnswer } from "../../support/answers.ts"

type LoginAnswer = Reply<"login">

/** The form reports success to its parent, so it runs inside a small one here. */
const start = (answer: LoginAnswer) => {
  const login = vi.fn(async (_: Credentials) => {
    return toAnswer<"login">(answer)
  })
  const succeeded = vi.fn()
  const parent = createActor(
    setup({
      types: { events: {} as LoginSucceeded },
      actors: { form: loginFormMachine.provide({ actors: { login: fromPromise(({ input }) => login(input)) } }) }
    }).createMachine({
      invoke: { id: "form", src: "form" },
      on: { "login.succeeded": { actions: ({ event }) => succeeded(event.token) } }
    })
  ).start()
  const form = parent.getSnapshot().children.form
  if (form === undefined) throw new Error("no form")
  const fill = (email: string, password: string) => {
    form.send({ type: "login.change", field: "email", value: email })
    form.send({ type: "login.change", field: "password", value: password })
  }
  return { form, fill, login, succeeded }
}

describe("loginFormMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("submits, shows submitting, and reports the token to its parent on success", async () => {
    const { form, fill, login, succeeded } = start({ success: true, resultCode: 1, token: "tok" })
    fill("Bob@Example.com", "longenough")
    form.send({ type: "login.submit" })
    expect(selectIsSubmitting(form.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(login).toHaveBeenCalledWith({ email: "bob@example.com", password: "longenough" })
    expect(succeeded).toHaveBeenCalledWith("tok")
    expect(form.getSnapshot().status).toBe("done")
  })

  it("shows the server's detail when the sign-in is refused", async () => {
    const { form, fill, succeeded } = start({ success: false, resultCode: 12, detail: "Email and password do not match" })
    fill("bob@example.com", "wrong password")
    form.send({ type: "login.submit" })
    await vi.runAllTimersAsync()
    expect(form.getSnapshot().value).toBe("editing")
    expect(selectLoginError(form.getSnapshot())).toBe("Email and password do not match")
    expect(selectIsSubmitting(form.getSnapshot())).toBe(false)
    expect(succeeded).not.toHaveBeenCalled()
  })

  it("shows the detail of a failure body (e.g. 429)", async () => {
    const { form, fill } = start(refused(429, "Too many attempts, try again in a minute"))
    fill("bob@example.com", "longenough")
    form.send({ type: "login.submit" })
    await vi.runAllTimersAsync()
    expect(selectLoginError(form.getSnapshot())).toBe("Too many attempts, try again in a minute")
  })

  it("falls back to a generic message without a detail", async () => {
    const { form, fill } = start(refused(500, ""))
    fill("bob@example.com", "longenough")
    form.send({ type: "login.submit" })
    await vi.runAllTimersAsync()
    expect(selectLoginError(form.getSnapshot())).toBe(LOGIN_FAILED_MESSAGE)
  })

  it("does not call the server with an invalid email or an empty password", () => {
    const { form, fill, login } = start({ success: true, resultCode: 1, token: "tok" })
    fill("not-an-email", "")
    form.send({ type: "login.submit" })
    expect(login).not.toHaveBeenCalled()
    expect(selectFieldErrors(form.getSnapshot())).toEqual({
      email: "Enter a valid email address.",
      password: PASSWORD_REQUIRED_MESSAGE
    })
    form.send({ type: "login.change", field: "email", value: "bob@example.com" })
    expect(selectFieldErrors(form.getSnapshot())).toEqual({ password: PASSWORD_REQUIRED_MESSAGE })
  })

  it("clears the previous server message when submitting again", async () => {
    const { form, fill } = start({ success: false, resultCode: 12, detail: "Email and password do not match" })
    fill("bob@example.com", "wrong password")
    form.send({ type: "login.submit" })
    await vi.runAllTimersAsync()
    form.send({ type: "login.submit" })
    expect(selectLoginError(form.getSnapshot())).toBeNull()
  })

  it("ignores a second submit while signing in: one call, one answer", async () => {
    const { form, fill, login, succeeded } = start({ success: true, resultCode: 1, token: "tok" })
    fill("bob@example.com", "longenough")
    form.send({ type: "login.submit" })
    form.send({ type: "login.submit" })
    expect(selectIsSubmitting(form.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(login).toHaveBeenCalledTimes(1)
    expect(succeeded).toHaveBeenCalledTimes(1)
  })

  it("names the first field the rules refused, in the form's order, and none once they pass", () => {
    const { form, fill } = start({ success: true, resultCode: 1, token: "tok" })
    expect(selectFirstInvalidField(form.getSnapshot())).toBeUndefined()
    fill("not-an-email", "")
    form.send({ type: "login.submit" })
    expect(selectFirstInvalidField(form.getSnapshot())).toBe("email")
    fill("bob@example.com", "")
    form.send({ type: "login.submit" })
    expect(selectFirstInvalidField(form.getSnapshot())).toBe("password")
    fill("bob@example.com", "longenough")
    form.send({ type: "login.submit" })
    expect(selectFirstInvalidField(form.getSnapshot())).toBeUndefined()
  })
})
