import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { refused } from "../../../src/domain/contract/answer.ts"
import {
  SIGN_IN_LINK_FAILED_MESSAGE,
  SIGN_IN_LINK_UNREACHABLE_MESSAGE,
  selectSignInLinkDetail,
  selectSignInLinkStep,
  signInLinkMachine
} from "../../../src/machines/account/signInLinkMachine.ts"
import { MISSING_TOKEN_MESSAGE } from "../../../src/machines/shared/mailedLink.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type SignInAnswer = Reply<"signInWithLink">

const NOT_VALID = "This sign-in link is not valid. Sign in with your email and password."
const USED = "This sign-in link has already been used. Sign in with your email and password."
const EXPIRED = "This sign-in link has expired. Sign in with your email and password to be sent a new one."

const start = (token: string, ...replies: Array<SignInAnswer>) => {
  const signIn = vi.fn(async (_: { readonly token: string }) => {
    const reply = replies.length > 1 ? replies.shift() : replies[0]
    if (reply === undefined) throw new Error("no answer given")
    return toAnswer<"signInWithLink">(reply)
  })
  const signedIn = vi.fn()
  const actor = createActor(
    signInLinkMachine.provide({ actors: { signIn: fromPromise(({ input }) => signIn(input)) }, actions: { signedIn } }),
    { input: { token } }
  ).start()
  const handedOver = () => signedIn.mock.calls.map((call) => call[1])
  return { actor, signIn, handedOver }
}

describe("signInLinkMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("sends the token once and hands the session token over", async () => {
    const { actor, signIn, handedOver } = start(" link-token ", { success: true, resultCode: 1, token: "session-token" })
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("signingIn")
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.runAllTimersAsync()
    expect(signIn).toHaveBeenCalledTimes(1)
    expect(signIn).toHaveBeenCalledWith({ token: "link-token" })
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("signedIn")
    expect(actor.getSnapshot().status).toBe("done")
    expect(handedOver()).toEqual([{ token: "session-token" }])
  })

  it.each([
    ["not valid (20)", { success: false, resultCode: 20, detail: NOT_VALID }, NOT_VALID],
    ["used (18)", { success: false, resultCode: 18, detail: USED }, USED],
    ["expired (25)", { success: false, resultCode: 25, detail: EXPIRED }, EXPIRED],
    ["an account no longer active (15)", { success: false, resultCode: 15, detail: "User not active" }, "User not active"],
    ["a 400", refused(400, "token: Token is too long", 19), "token: Token is too long"],
    ["a refusal without a reason", { success: false, resultCode: 20 }, SIGN_IN_LINK_FAILED_MESSAGE],
    ["success without code 1", { success: true, resultCode: 4, token: "session-token" }, SIGN_IN_LINK_FAILED_MESSAGE],
    ["success without a session token", { success: true, resultCode: 1 }, SIGN_IN_LINK_FAILED_MESSAGE]
  ] as const)("is invalid for %s, signing nobody in", async (_, answer, detail) => {
    const { actor, handedOver } = start("link-token", answer as SignInAnswer)
    await vi.runAllTimersAsync()
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("invalid")
    expect(selectSignInLinkDetail(actor.getSnapshot())).toBe(detail)
    expect(handedOver()).toEqual([])
  })

  it.each([
    ["a network failure", OFFLINE, "Check your connection and try again."],
    ["a server error", refused(500, "Internal error") as SignInAnswer, "Please try again in a moment."],
    [
      "a 429",
      refused(429, "Too many attempts from your network. Try again in 30 seconds.") as SignInAnswer,
      "Too many attempts from your network. Try again in 30 seconds."
    ]
  ])("offers to try again after %s, which says nothing of the link, and signs in then", async (_, answer, hint) => {
    const { actor, signIn, handedOver } = start("link-token", answer, { success: true, resultCode: 1, token: "session-token" })
    await vi.runAllTimersAsync()
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("unreachable")
    expect(selectSignInLinkDetail(actor.getSnapshot())).toBe(`${SIGN_IN_LINK_UNREACHABLE_MESSAGE} ${hint}`)
    expect(handedOver()).toEqual([])
    actor.send({ type: "signInLink.retry" })
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("signingIn")
    await vi.runAllTimersAsync()
    expect(signIn).toHaveBeenCalledTimes(2)
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("signedIn")
    expect(handedOver()).toEqual([{ token: "session-token" }])
  })

  it("calls nothing without a token", () => {
    const { actor, signIn, handedOver } = start("  ", { success: true, resultCode: 1, token: "session-token" })
    expect(signIn).not.toHaveBeenCalled()
    expect(selectSignInLinkStep(actor.getSnapshot())).toBe("invalid")
    expect(selectSignInLinkDetail(actor.getSnapshot())).toBe(MISSING_TOKEN_MESSAGE)
    expect(handedOver()).toEqual([])
  })

  it("sends nothing again once it has an answer", async () => {
    const { actor, signIn } = start("link-token", { success: false, resultCode: 18, detail: USED })
    await vi.runAllTimersAsync()
    actor.send({ type: "signInLink.retry" })
    await vi.runAllTimersAsync()
    expect(signIn).toHaveBeenCalledTimes(1)
  })
})
