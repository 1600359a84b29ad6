import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { NETWORK_FAILURE_DETAIL } from "../../../src/adapters/http/http.ts"
import { refused } from "../../../src/domain/contract/answer.ts"
import {
  forgotPasswordMachine,
  RESET_REQUEST_FAILED_MESSAGE,
  RESET_REQUESTED_MESSAGE,
  selectFirstInvalidField,
  selectForgotPasswordAlert,
  selectForgotPasswordErrors,
  selectIsRequestingReset,
  selectIsResetRequested
} from "../../../src/machines/account/forgotPasswordMachine.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type ResetRequestAnswer = Reply<"createPasswordReset">

const start = (answer: ResetRequestAnswer) => {
  const requestReset = vi.fn(async (_: { readonly email: string }) => {
    return toAnswer<"createPasswordReset">(answer)
  })
  const actor = createActor(
    forgotPasswordMachine.provide({ actors: { requestReset: fromPromise(({ input }) => requestReset(input)) } })
  ).start()
  const type = (value: string) => actor.send({ type: "forgotPassword.change", field: "email", value })
  return { actor, requestReset, type }
}

describe("forgotPasswordMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("uses the message with the final period on this page", () => {
    const { actor, requestReset } = start({ success: true })
    actor.send({ type: "forgotPassword.submit" })
    expect(selectForgotPasswordErrors(actor.getSnapshot())).toEqual({ email: "Enter a valid email address." })
    expect(requestReset).not.toHaveBeenCalled()
  })

  it.each([
    ["success", { success: true, detail: "If the email is registered, reset instructions will be sent." }],
    ["success false", { success: false }]
  ] as const)("sends the lower-cased email and says the same after %s", async (_, answer) => {
    const { actor, requestReset, type } = start(answer)
    type(" Ann@Example.com ")
    actor.send({ type: "forgotPassword.submit" })
    expect(selectIsRequestingReset(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(requestReset).toHaveBeenCalledWith({ email: "ann@example.com" })
    expect(selectIsResetRequested(actor.getSnapshot())).toBe(true)
    expect(RESET_REQUESTED_MESSAGE).toBe("If the email is registered, reset instructions will be sent.")
  })

  it.each([
    ["a 429", refused(429, "Too many password reset requests.") as ResetRequestAnswer, "Too many password reset requests."],
    ["a network failure", OFFLINE, NETWORK_FAILURE_DETAIL],
    ["a server error without a detail", refused(502, ""), RESET_REQUEST_FAILED_MESSAGE]
  ])("keeps the form after %s, which sent nothing", async (_, answer, alert) => {
    const { actor, type } = start(answer)
    type("ann@example.com")
    actor.send({ type: "forgotPassword.submit" })
    await vi.runAllTimersAsync()
    expect(selectIsResetRequested(actor.getSnapshot())).toBe(false)
    expect(selectForgotPasswordAlert(actor.getSnapshot())).toBe(alert)
  })

  it("names the email as the field to focus after a refused submit", () => {
    const { actor, type } = start({ success: true })
    actor.send({ type: "forgotPassword.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("email")
    type("ann@example.com")
    actor.send({ type: "forgotPassword.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBeUndefined()
  })

  it("ignores a second submit while the request is on its way", async () => {
    const { actor, requestReset, type } = start({ success: true })
    type("ann@example.com")
    actor.send({ type: "forgotPassword.submit" })
    actor.send({ type: "forgotPassword.submit" })
    expect(selectIsRequestingReset(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(requestReset).toHaveBeenCalledTimes(1)
  })
})
