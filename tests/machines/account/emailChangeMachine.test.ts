import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { NETWORK_FAILURE_DETAIL } from "../../../src/adapters/http/http.ts"
import { refused } from "../../../src/domain/contract/answer.ts"
import {
  EMAIL_CHANGE_FAILED_MESSAGE,
  emailChangeMachine,
  selectConfirmedEmail,
  selectEmailChangeDetail,
  selectEmailChangeStep
} from "../../../src/machines/account/emailChangeMachine.ts"
import { MISSING_TOKEN_MESSAGE } from "../../../src/machines/shared/mailedLink.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type ConfirmAnswer = Reply<"confirmEmailChange">

const start = (token: string, answer: ConfirmAnswer) => {
  const confirm = vi.fn(async (_: { readonly token: string }) => {
    return toAnswer<"confirmEmailChange">(answer)
  })
  const emailChanged = vi.fn()
  const actor = createActor(
    emailChangeMachine.provide({ actors: { confirm: fromPromise(({ input }) => confirm(input)) }, actions: { emailChanged } }),
    { input: { token } }
  ).start()
  return { actor, confirm, emailChanged }
}

describe("emailChangeMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("confirms the token and keeps the address to use next time", async () => {
    const { actor, confirm, emailChanged } = start("tok", { success: true, resultCode: 1, email: "new@example.com" })
    expect(selectEmailChangeStep(actor.getSnapshot())).toBe("confirming")
    await vi.runAllTimersAsync()
    expect(confirm).toHaveBeenCalledWith({ token: "tok" })
    expect(selectEmailChangeStep(actor.getSnapshot())).toBe("success")
    expect(selectConfirmedEmail(actor.getSnapshot())).toBe("new@example.com")
    expect(emailChanged).toHaveBeenCalledTimes(1)
  })

  it.each([
    [
      "not found (2)",
      { success: false, resultCode: 2, detail: "This email confirmation link is not valid." },
      "This email confirmation link is not valid."
    ],
    ["used (18)", { success: false, resultCode: 18, detail: "Already used." }, "Already used."],
    ["expired (25)", { success: false, resultCode: 25, detail: "Expired." }, "Expired."],
    [
      "taken (14)",
      { success: false, resultCode: 14, detail: "That email address is already registered to another account." },
      "That email address is already registered to another account."
    ],
    ["a 429", refused(429, "Too many attempts."), "Too many attempts."],
    ["no detail", { success: false, resultCode: 2 }, EMAIL_CHANGE_FAILED_MESSAGE]
  ] as const)("shows the server's message for %s", async (_, answer, detail) => {
    const { actor, emailChanged } = start("tok", answer as ConfirmAnswer)
    await vi.runAllTimersAsync()
    expect(selectEmailChangeStep(actor.getSnapshot())).toBe("failure")
    expect(selectEmailChangeDetail(actor.getSnapshot())).toBe(detail)
    expect(emailChanged).not.toHaveBeenCalled()
  })

  it("fails without calling when the link has no token", () => {
    const { actor, confirm } = start("", { success: true, resultCode: 1, email: "x@example.com" })
    expect(confirm).not.toHaveBeenCalled()
    expect(selectEmailChangeDetail(actor.getSnapshot())).toBe(MISSING_TOKEN_MESSAGE)
  })

  it("fails after a network error", async () => {
    const { actor } = start("tok", OFFLINE)
    await vi.runAllTimersAsync()
    expect(selectEmailChangeDetail(actor.getSnapshot())).toBe(NETWORK_FAILURE_DETAIL)
  })
})
