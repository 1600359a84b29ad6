import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, setup } from "xstate"
import { refused } from "../../../src/domain/contract/answer.ts"
import { type Credentials, loginFormMachine, selectResendVerification } from "../../../src/machines/account/loginFormMachine.ts"
import {
  RESEND_FAILED_MESSAGE,
  resendVerificationMachine,
  selectIsResending,
  selectResendConfirmation,
  selectResendFailure,
  VERIFICATION_RESENT_MESSAGE
} from "../../../src/machines/account/resendVerificationMachine.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

const NOT_VERIFIED = { success: false, resultCode: 13, detail: "Email not verified" } as const
const SENT = {
  success: true,
  detail: "If this email address has an account that still needs verifying, we have sent it a new verification link."
}

/** The login form inside a small parent, its calls faked: `logins` answered in turn, every resend with `resendReplies` in turn. */
const start = (logins: ReadonlyArray<Reply<"login">>, resendReplies: ReadonlyArray<Reply<"resendVerification">> = [SENT]) => {
  let loginCall = 0
  let resendCall = 0
  const login = vi.fn(async (_: Credentials) => toAnswer<"login">(logins[Math.min(loginCall++, logins.length - 1)] as Reply<"login">))
  const resend = vi.fn(async (_: { email: string }) =>
    toAnswer<"resendVerification">(resendReplies[Math.min(resendCall++, resendReplies.length - 1)] as Reply<"resendVerification">)
  )
  const parent = createActor(
    setup({
      actors: {
        form: loginFormMachine.provide({
          actors: {
            login: fromPromise(({ input }) => login(input)),
            resendVerification: resendVerificationMachine.provide({ actors: { resend: fromPromise(({ input }) => resend(input)) } })
          }
        })
      }
    }).createMachine({ invoke: { id: "form", src: "form" } })
  ).start()
  const form = parent.getSnapshot().children.form
  if (form === undefined) throw new Error("no form")
  const signIn = async (email: string) => {
    form.send({ type: "login.change", field: "email", value: email })
    form.send({ type: "login.change", field: "password", value: "longenough" })
    form.send({ type: "login.submit" })
    await vi.runAllTimersAsync()
  }
  const offer = () => selectResendVerification(form.getSnapshot())
  return { form, signIn, offer, resend }
}

describe("sending the verification email again from the login form", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("is offered only after an Email not verified answer", async () => {
    const mismatch = start([{ success: false, resultCode: 12, detail: "Email and password do not match" }])
    await mismatch.signIn("bob@example.com")
    expect(mismatch.offer()).toBeUndefined()
    const unverified = start([NOT_VERIFIED])
    await unverified.signIn("bob@example.com")
    expect(unverified.offer()).toBeDefined()
  })

  it("mails the refused address (lower-cased), busy meanwhile, then shows the server's neutral confirmation", async () => {
    const { signIn, offer, resend } = start([NOT_VERIFIED])
    await signIn("Bob@Example.com")
    const resender = offer()
    if (resender === undefined) throw new Error("no offer")
    resender.send({ type: "resendVerification.send" })
    expect(selectIsResending(resender.getSnapshot())).toBe(true)
    resender.send({ type: "resendVerification.send" })
    await vi.runAllTimersAsync()
    expect(resend).toHaveBeenCalledTimes(1)
    expect(resend).toHaveBeenCalledWith({ email: "bob@example.com" })
    expect(selectIsResending(resender.getSnapshot())).toBe(false)
    expect(selectResendConfirmation(resender.getSnapshot())).toBe(SENT.detail)
  })

  it("shows our own confirmation when the server gives no words", async () => {
    const { signIn, offer } = start([NOT_VERIFIED], [{ success: true }])
    await signIn("bob@example.com")
    offer()?.send({ type: "resendVerification.send" })
    await vi.runAllTimersAsync()
    expect(selectResendConfirmation(offer()!.getSnapshot())).toBe(VERIFICATION_RESENT_MESSAGE)
  })

  it("shows why it failed, and sends again when asked", async () => {
    const tooMany = refused(429, "Too many verification emails asked for this email address. Try again in 60 minutes.")
    const { signIn, offer, resend } = start([NOT_VERIFIED], [OFFLINE, tooMany, SENT])
    await signIn("bob@example.com")
    const resender = offer()!
    resender.send({ type: "resendVerification.send" })
    await vi.runAllTimersAsync()
    expect(selectResendFailure(resender.getSnapshot())).toBe(`${RESEND_FAILED_MESSAGE} Check your connection and try again.`)
    resender.send({ type: "resendVerification.send" })
    await vi.runAllTimersAsync()
    expect(selectResendFailure(resender.getSnapshot())).toBe(`${RESEND_FAILED_MESSAGE} ${tooMany.detail}`)
    resender.send({ type: "resendVerification.send" })
    await vi.runAllTimersAsync()
    expect(selectResendFailure(resender.getSnapshot())).toBeNull()
    expect(selectResendConfirmation(resender.getSnapshot())).toBe(SENT.detail)
    expect(resend).toHaveBeenCalledTimes(3)
  })

  it("withdraws the offer when the form is sent again", async () => {
    const { form, signIn, offer } = start([NOT_VERIFIED, { success: false, resultCode: 12, detail: "Email and password do not match" }])
    await signIn("bob@example.com")
    expect(offer()).toBeDefined()
    form.send({ type: "login.submit" })
    expect(offer()).toBeUndefined()
    await vi.runAllTimersAsync()
    expect(offer()).toBeUndefined()
  })
})
