import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { refused } from "../../../src/domain/contract/answer.ts"
import {
  profilePasswordMachine,
  selectFirstInvalidField,
  selectIsUpdatingPassword,
  selectProfilePasswordErrors,
  selectProfilePasswordValues
} from "../../../src/machines/account/profilePasswordMachine.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type UpdateAnswer = Reply<"updatePassword">

const start = (answer: UpdateAnswer) => {
  const updatePassword = vi.fn(async (_: { readonly currentPassword: string; readonly newPassword: string }) => {
    return toAnswer<"updatePassword">(answer)
  })
  const notify = vi.fn()
  const actor = createActor(
    profilePasswordMachine.provide({ actors: { updatePassword: fromPromise(({ input }) => updatePassword(input)) }, actions: { notify } })
  ).start()
  const fill = (currentPassword: string, newPassword: string, confirmPassword = newPassword) => {
    actor.send({ type: "profilePassword.change", field: "currentPassword", value: currentPassword })
    actor.send({ type: "profilePassword.change", field: "newPassword", value: newPassword })
    actor.send({ type: "profilePassword.change", field: "confirmPassword", value: confirmPassword })
  }
  const notifications = () => notify.mock.calls.map((call) => call[1])
  return { actor, updatePassword, notifications, fill }
}

describe("profilePasswordMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("needs 8 characters for the current and the new password, and a matching confirmation", () => {
    const { actor, fill, updatePassword } = start({ success: true, resultCode: 1 })
    fill("short", "tiny", "other")
    actor.send({ type: "profilePassword.submit" })
    expect(selectProfilePasswordErrors(actor.getSnapshot())).toEqual({
      currentPassword: "Password length too short",
      newPassword: "Password length too short",
      confirmPassword: "Passwords do not match"
    })
    expect(updatePassword).not.toHaveBeenCalled()
  })

  it("updates, says 'Password has been updated!' and empties the fields", async () => {
    const { actor, fill, updatePassword, notifications } = start({ success: true, resultCode: 1 })
    fill("correct horse", "new password")
    actor.send({ type: "profilePassword.submit" })
    expect(selectIsUpdatingPassword(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(updatePassword).toHaveBeenCalledWith({ currentPassword: "correct horse", newPassword: "new password" })
    expect(notifications()).toEqual([{ tone: "success", title: "Success!", message: "Password has been updated!" }])
    expect(selectProfilePasswordValues(actor.getSnapshot())).toEqual({ currentPassword: "", newPassword: "", confirmPassword: "" })
  })

  it.each([
    [
      "a wrong current password (12)",
      { success: false, resultCode: 12, detail: "Incorrect password" } as UpdateAnswer,
      "Incorrect password"
    ],
    ["a 400", refused(400, "bad", 19) as UpdateAnswer, "Please try again."],
    ["a network failure", OFFLINE, "Please try again."],
    [
      "a 429: the account's password checks are paused",
      refused(429, "Too many wrong passwords for this account, so password checks are paused for 13 minutes.") as UpdateAnswer,
      "Too many wrong passwords for this account, so password checks are paused for 13 minutes."
    ]
  ])("reports 'Failed to update password.' after %s and keeps the fields", async (_, answer, message) => {
    const { actor, fill, notifications } = start(answer)
    fill("wrong password", "new password")
    actor.send({ type: "profilePassword.submit" })
    await vi.runAllTimersAsync()
    expect(notifications()).toEqual([{ tone: "error", title: "Failed to update password.", message }])
    expect(selectProfilePasswordValues(actor.getSnapshot()).newPassword).toBe("new password")
  })

  it("ignores a second submit while updating: one call, one notification", async () => {
    const { actor, fill, updatePassword, notifications } = start({ success: true, resultCode: 1 })
    fill("correct horse", "new password")
    actor.send({ type: "profilePassword.submit" })
    actor.send({ type: "profilePassword.submit" })
    expect(selectIsUpdatingPassword(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(updatePassword).toHaveBeenCalledTimes(1)
    expect(notifications()).toHaveLength(1)
  })

  it("names the first field the rules refused, in the form's order", () => {
    const { actor, fill } = start({ success: true, resultCode: 1 })
    fill("correct horse", "tiny", "other")
    actor.send({ type: "profilePassword.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("newPassword")
    fill("short", "new password", "other")
    actor.send({ type: "profilePassword.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("currentPassword")
  })

  it("refuses passwords longer than the server takes, with their own message", () => {
    const { actor, fill, updatePassword } = start({ success: true, resultCode: 1 })
    const long = "x".repeat(1025)
    fill(long, long)
    actor.send({ type: "profilePassword.submit" })
    expect(selectProfilePasswordErrors(actor.getSnapshot())).toEqual({
      currentPassword: "Password is too long. Use at most 1,024 characters.",
      newPassword: "Password is too long. Use at most 1,024 characters."
    })
    fill("x".repeat(1024), "y".repeat(1024))
    actor.send({ type: "profilePassword.submit" })
    expect(selectProfilePasswordErrors(actor.getSnapshot())).toEqual({})
    expect(updatePassword).toHaveBeenCalledTimes(1)
  })
})
