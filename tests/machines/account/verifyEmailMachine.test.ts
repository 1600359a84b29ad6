import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { refused } from "../../../src/domain/contract/answer.ts"
import {
  selectVerifyDetail,
  selectVerifyStep,
  VERIFY_FAILED_MESSAGE,
  VERIFY_UNREACHABLE_MESSAGE,
  verifyEmailMachine
} from "../../../src/machines/account/verifyEmailMachine.ts"
import { MISSING_TOKEN_MESSAGE } from "../../../src/machines/shared/mailedLink.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type VerifyAnswer = Reply<"verifyEmail">

const start = (token: string, answer: VerifyAnswer) => {
  const verify = vi.fn(async (_: { readonly token: string }) => {
    return toAnswer<"verifyEmail">(answer)
  })
  const actor = createActor(verifyEmailMachine.provide({ actors: { verify: fromPromise(({ input }) => verify(input)) } }), {
    input: { token }
  }).start()
  return { actor, verify }
}

describe("verifyEmailMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("sends the token once and ends verified", async () => {
    const { actor, verify } = start("tok-1", { success: true, resultCode: 1, detail: "Email verified. You can sign in now." })
    expect(selectVerifyStep(actor.getSnapshot())).toBe("verifying")
    await vi.runAllTimersAsync()
    expect(verify).toHaveBeenCalledTimes(1)
    expect(verify).toHaveBeenCalledWith({ token: "tok-1" })
    expect(selectVerifyStep(actor.getSnapshot())).toBe("verified")
    expect(selectVerifyDetail(actor.getSnapshot())).toBe("Email verified. You can sign in now.")
  })

  it.each([
    [
      "not found (2)",
      { success: false, resultCode: 2, detail: "This verification link is not valid." },
      "This verification link is not valid."
    ],
    ["used (18)", { success: false, resultCode: 18, detail: "Already used." }, "Already used."],
    ["expired (25)", { success: false, resultCode: 25, detail: "Expired." }, "Expired."],
    ["a 400", refused(400, "token: Token is too long", 19), "token: Token is too long"],
    ["success without code 1", { success: true, resultCode: 4 }, VERIFY_FAILED_MESSAGE]
  ] as const)("is invalid for %s", async (_, answer, detail) => {
    const { actor } = start("tok-1", answer as VerifyAnswer)
    await vi.runAllTimersAsync()
    expect(selectVerifyStep(actor.getSnapshot())).toBe("invalid")
    expect(selectVerifyDetail(actor.getSnapshot())).toBe(detail)
  })

  it.each([
    ["a network failure", OFFLINE, "Check your connection and try again."],
    ["a server error", refused(500, "Internal error") as VerifyAnswer, "Please try again in a moment."],
    [
      "a 429",
      refused(429, "Too many attempts from your network. Try again in 30 seconds.") as VerifyAnswer,
      "Too many attempts from your network. Try again in 30 seconds."
    ]
  ])("offers to verify again after %s, which says nothing of the link", async (_, answer, hint) => {
    const { actor, verify } = start("tok-1", answer)
    await vi.runAllTimersAsync()
    expect(selectVerifyStep(actor.getSnapshot())).toBe("unreachable")
    expect(selectVerifyDetail(actor.getSnapshot())).toBe(`${VERIFY_UNREACHABLE_MESSAGE} ${hint}`)
    actor.send({ type: "verify.retry" })
    expect(selectVerifyStep(actor.getSnapshot())).toBe("verifying")
    await vi.runAllTimersAsync()
    expect(verify).toHaveBeenCalledTimes(2)
  })

  it("is invalid when the server refuses the token", async () => {
    const { actor } = start("tok-1", { success: false, resultCode: 20 } as VerifyAnswer)
    await vi.runAllTimersAsync()
    expect(selectVerifyStep(actor.getSnapshot())).toBe("invalid")
    expect(selectVerifyDetail(actor.getSnapshot())).toBe(VERIFY_FAILED_MESSAGE)
  })

  it("calls nothing without a token", () => {
    const { actor, verify } = start("  ", { success: true, resultCode: 1 })
    expect(verify).not.toHaveBeenCalled()
    expect(selectVerifyStep(actor.getSnapshot())).toBe("invalid")
    expect(selectVerifyDetail(actor.getSnapshot())).toBe(MISSING_TOKEN_MESSAGE)
  })
})
