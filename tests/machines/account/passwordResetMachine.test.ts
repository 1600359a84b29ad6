import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { NETWORK_FAILURE_DETAIL } from "../../../src/adapters/http/http.ts"
import { refused, unreachable } from "../../../src/domain/contract/answer.ts"
import {
  passwordResetMachine,
  RESET_FAILED_MESSAGE,
  RESET_LINK_FAILED_MESSAGE,
  RESET_LINK_UNREACHABLE_MESSAGE,
  selectFirstInvalidField,
  selectIsResettingPassword,
  selectPasswordResetAlert,
  selectPasswordResetDetail,
  selectPasswordResetErrors,
  selectPasswordResetStep,
  selectPasswordResetValues,
  selectResetEmail
} from "../../../src/machines/account/passwordResetMachine.ts"
import { MISSING_TOKEN_MESSAGE } from "../../../src/machines/shared/mailedLink.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type TokenAnswer = Reply<"verifyPasswordReset">
type ResetAnswer = Reply<"resetPassword">

const VALID: TokenAnswer = { success: true, resultCode: 1, email: "ann@example.com" }

const start = ({ token = "tok", check = VALID as TokenAnswer, answer = { success: true, resultCode: 1 } as ResetAnswer } = {}) => {
  const checkToken = vi.fn(async (_: { readonly token: string }) => toAnswer<"verifyPasswordReset">(check))
  const resetPassword = vi.fn(async (_: { readonly token: string; readonly newPassword: string }) => toAnswer<"resetPassword">(answer))
  const actor = createActor(
    passwordResetMachine.provide({
      actors: {
        checkToken: fromPromise(({ input }) => checkToken(input)),
        resetPassword: fromPromise(({ input }) => resetPassword(input))
      }
    }),
    { input: { token } }
  ).start()
  const fill = (password: string, confirmPassword = password) => {
    actor.send({ type: "passwordReset.change", field: "password", value: password })
    actor.send({ type: "passwordReset.change", field: "confirmPassword", value: confirmPassword })
  }
  return { actor, checkToken, resetPassword, fill }
}

describe("passwordResetMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("checks the token first, then shows the form with the account's email", async () => {
    const { actor, checkToken } = start()
    expect(selectPasswordResetStep(actor.getSnapshot())).toBe("checkingToken")
    await vi.runAllTimersAsync()
    expect(checkToken).toHaveBeenCalledWith({ token: "tok" })
    expect(selectPasswordResetStep(actor.getSnapshot())).toBe("form")
    expect(selectResetEmail(actor.getSnapshot())).toBe("ann@example.com")
  })

  it.each([
    [
      "invalid (20)",
      { success: false, resultCode: 20, detail: "This password reset link is not valid." },
      "This password reset link is not valid."
    ],
    ["expired (21)", { success: false, resultCode: 21, detail: "Expired." }, "Expired."],
    ["used (23)", { success: false, resultCode: 23, detail: "Used." }, "Used."],
    ["no detail", { success: false, resultCode: 20 }, RESET_LINK_FAILED_MESSAGE],
    ["success without an email", { success: true, resultCode: 1 }, RESET_LINK_FAILED_MESSAGE]
  ] as const)("shows the server detail when the token check answers %s", async (_, check, detail) => {
    const { actor } = start({ check: check as TokenAnswer })
    await vi.runAllTimersAsync()
    expect(selectPasswordResetStep(actor.getSnapshot())).toBe("error")
    expect(selectPasswordResetDetail(actor.getSnapshot())).toBe(detail)
  })

  it("offers to check the link again after a 429, a server error or no answer, which say nothing of the link", async () => {
    for (const [check, hint] of [
      [refused(429, "Too many attempts. Try again in 20 seconds."), "Too many attempts. Try again in 20 seconds."],
      [refused(502, "Bad gateway"), "Please try again in a moment."],
      [unreachable("network", "offline"), "Check your connection and try again."]
    ] as const) {
      const { actor, checkToken } = start({ check: check as TokenAnswer })
      await vi.runAllTimersAsync()
      expect(selectPasswordResetStep(actor.getSnapshot())).toBe("unreachable")
      expect(selectPasswordResetDetail(actor.getSnapshot())).toBe(`${RESET_LINK_UNREACHABLE_MESSAGE} ${hint}`)
      actor.send({ type: "passwordReset.retry" })
      expect(selectPasswordResetStep(actor.getSnapshot())).toBe("checkingToken")
      await vi.runAllTimersAsync()
      expect(checkToken).toHaveBeenCalledTimes(2)
    }
  })

  it("goes straight to the error state without a token", () => {
    const { actor, checkToken } = start({ token: "" })
    expect(checkToken).not.toHaveBeenCalled()
    expect(selectPasswordResetDetail(actor.getSnapshot())).toBe(MISSING_TOKEN_MESSAGE)
  })

  it("validates the 8-character minimum and the confirmation", async () => {
    const { actor, fill, resetPassword } = start()
    await vi.runAllTimersAsync()
    fill("short", "different")
    actor.send({ type: "passwordReset.submit" })
    expect(selectPasswordResetErrors(actor.getSnapshot())).toEqual({
      password: "Password length too short",
      confirmPassword: "Passwords do not match"
    })
    fill("longenough", "longenougH")
    actor.send({ type: "passwordReset.submit" })
    expect(selectPasswordResetErrors(actor.getSnapshot())).toEqual({ confirmPassword: "Passwords do not match" })
    expect(resetPassword).not.toHaveBeenCalled()
  })

  it("sends the token and the new password, then completes with the fields emptied", async () => {
    const { actor, fill, resetPassword } = start()
    await vi.runAllTimersAsync()
    fill("new password")
    actor.send({ type: "passwordReset.submit" })
    expect(selectIsResettingPassword(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(resetPassword).toHaveBeenCalledWith({ token: "tok", newPassword: "new password" })
    expect(selectPasswordResetStep(actor.getSnapshot())).toBe("complete")
    expect(selectPasswordResetValues(actor.getSnapshot())).toEqual({ password: "", confirmPassword: "" })
  })

  it("ends in the error state when the server refuses the reset", async () => {
    const { actor, fill } = start({ answer: { success: false, resultCode: 23, detail: "This password reset link has already been used." } })
    await vi.runAllTimersAsync()
    fill("new password")
    actor.send({ type: "passwordReset.submit" })
    await vi.runAllTimersAsync()
    expect(selectPasswordResetStep(actor.getSnapshot())).toBe("error")
    expect(selectPasswordResetDetail(actor.getSnapshot())).toBe("This password reset link has already been used.")
  })

  it.each([
    ["a 429", refused(429, "Too many attempts.") as ResetAnswer, "Too many attempts."],
    ["a network failure", OFFLINE, NETWORK_FAILURE_DETAIL],
    ["a server error without a detail", refused(502, ""), RESET_FAILED_MESSAGE]
  ])("keeps the form after %s", async (_, answer, alert) => {
    const { actor, fill } = start({ answer })
    await vi.runAllTimersAsync()
    fill("new password")
    actor.send({ type: "passwordReset.submit" })
    await vi.runAllTimersAsync()
    expect(selectPasswordResetStep(actor.getSnapshot())).toBe("form")
    expect(selectPasswordResetAlert(actor.getSnapshot())).toBe(alert)
    expect(selectPasswordResetValues(actor.getSnapshot()).password).toBe("new password")
  })

  it("ignores a second submit while the new password is being saved", async () => {
    const { actor, fill, resetPassword } = start()
    await vi.runAllTimersAsync()
    fill("new password")
    actor.send({ type: "passwordReset.submit" })
    actor.send({ type: "passwordReset.submit" })
    expect(selectIsResettingPassword(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(resetPassword).toHaveBeenCalledTimes(1)
  })

  it("names the first field the rules refused, and refuses a password longer than the server takes", async () => {
    const { actor, fill, resetPassword } = start()
    await vi.runAllTimersAsync()
    fill("longenough", "different")
    actor.send({ type: "passwordReset.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("confirmPassword")
    fill("x".repeat(1025))
    actor.send({ type: "passwordReset.submit" })
    expect(selectPasswordResetErrors(actor.getSnapshot())).toEqual({ password: "Password is too long. Use at most 1,024 characters." })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("password")
    expect(resetPassword).not.toHaveBeenCalled()
  })
})
