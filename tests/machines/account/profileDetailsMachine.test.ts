import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { refused } from "../../../src/domain/contract/answer.ts"
import type { BodyOf } from "../../../src/domain/contract/api.ts"
import {
  NOTHING_CHANGED,
  profileDetailsMachine,
  selectFirstInvalidField,
  selectIsCancellingEmailChange,
  selectIsUpdatingDetails,
  selectPendingEmail,
  selectProfileDetailsErrors,
  selectProfileDetailsValues
} from "../../../src/machines/account/profileDetailsMachine.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type UpdateAnswer = Reply<"updateUsernameAndEmail">

const ok = (emailUpdatePending: boolean, usernameUpdated: boolean): UpdateAnswer => ({
  success: true,
  resultCode: 1,
  emailUpdatePending,
  usernameUpdated
})

const start = (answer: UpdateAnswer, pendingEmail?: string) => {
  const updateDetails = vi.fn(async (_: BodyOf<"updateUsernameAndEmail">) => {
    return toAnswer<"updateUsernameAndEmail">(answer)
  })
  const notified: Array<NotificationContent> = []
  const refreshUser = vi.fn()
  const actor = createActor(
    profileDetailsMachine.provide({
      actors: { updateDetails: fromPromise(({ input }) => updateDetails(input)) },
      actions: { notify: (_, contents) => void notified.push(...contents), refreshUser }
    }),
    { input: { username: "ann", email: "ann@example.com", pendingEmail } }
  ).start()
  const type = (field: "username" | "email" | "password", value: string) => actor.send({ type: "profileDetails.change", field, value })
  const submitWith = async (password: string) => {
    type("password", password)
    actor.send({ type: "profileDetails.submit" })
    await vi.runAllTimersAsync()
  }
  return { actor, updateDetails, notified, refreshUser, type, submitWith }
}

describe("profileDetailsMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("starts with the username and email of the user info", () => {
    const { actor } = start(ok(false, false))
    expect(selectProfileDetailsValues(actor.getSnapshot())).toEqual({ username: "ann", email: "ann@example.com", password: "" })
  })

  it("needs a username, a valid email and the password", () => {
    const { actor, type, updateDetails } = start(ok(false, false))
    type("username", "  ")
    type("email", "nope")
    actor.send({ type: "profileDetails.submit" })
    expect(selectProfileDetailsErrors(actor.getSnapshot())).toEqual({
      username: "Please enter a username.",
      email: "Enter a valid email address.",
      password: "Please enter your password."
    })
    expect(updateDetails).not.toHaveBeenCalled()
  })

  it("sends a lower-cased email; a pending change and a new username each say so", async () => {
    const { actor, type, submitWith, updateDetails, notified, refreshUser } = start(ok(true, true))
    type("username", "annie")
    type("email", "Annie@Example.com")
    const submitting = submitWith("correct horse")
    expect(selectIsUpdatingDetails(actor.getSnapshot())).toBe(true)
    await submitting
    expect(updateDetails).toHaveBeenCalledWith({ username: "annie", email: "annie@example.com", password: "correct horse" })
    expect(notified).toEqual([
      { tone: "success", title: "Success!", message: "Please follow the verification instructions sent to annie@example.com" },
      { tone: "success", title: "Success!", message: "Username updated!" }
    ])
    expect(refreshUser).toHaveBeenCalledTimes(1)
    // the account keeps its address until the new one is confirmed: the field shows what it has
    expect(selectProfileDetailsValues(actor.getSnapshot())).toEqual({ username: "annie", email: "ann@example.com", password: "" })
    expect(selectPendingEmail(actor.getSnapshot())).toBe("annie@example.com")
  })

  it("starts with a change the server says is still waiting, and cancels it with the password by sending the saved details", async () => {
    const { actor, type, updateDetails, notified } = start(ok(false, false), "new@example.com")
    expect(selectPendingEmail(actor.getSnapshot())).toBe("new@example.com")
    type("username", "typed but not saved")
    actor.send({ type: "profileDetails.cancelEmailChange" })
    expect(selectProfileDetailsErrors(actor.getSnapshot())).toEqual({ password: "Please enter your password." })
    expect(updateDetails).not.toHaveBeenCalled()
    type("password", "correct horse")
    actor.send({ type: "profileDetails.cancelEmailChange" })
    expect(selectIsCancellingEmailChange(actor.getSnapshot())).toBe(true)
    expect(selectIsUpdatingDetails(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(updateDetails).toHaveBeenCalledWith({ username: "ann", email: "ann@example.com", password: "correct horse" })
    expect(selectPendingEmail(actor.getSnapshot())).toBeNull()
    expect(notified).toEqual([
      {
        tone: "success",
        title: "Email change cancelled",
        message: "Your account keeps ann@example.com; the confirmation link no longer works."
      }
    ])
    expect(selectProfileDetailsValues(actor.getSnapshot()).password).toBe("")
  })

  it("keeps the waiting change when cancelling fails", async () => {
    const incorrect = { success: false, resultCode: 12, emailUpdatePending: false, usernameUpdated: false, detail: "Incorrect password" }
    const { actor, type, notified } = start(incorrect as UpdateAnswer, "new@example.com")
    type("password", "wrong password")
    actor.send({ type: "profileDetails.cancelEmailChange" })
    await vi.runAllTimersAsync()
    expect(selectPendingEmail(actor.getSnapshot())).toBe("new@example.com")
    expect(notified).toEqual([{ tone: "error", title: "Failed to update", message: "Incorrect password" }])
  })

  it("forgets a waiting change once the current address is saved again", async () => {
    const { actor, submitWith } = start(ok(false, false), "new@example.com")
    await submitWith("correct horse")
    expect(selectPendingEmail(actor.getSnapshot())).toBeNull()
  })

  it("only mentions the email when only the email changes, and keeps the user info", async () => {
    const { type, submitWith, notified, refreshUser } = start(ok(true, false))
    type("email", "new@example.com")
    await submitWith("correct horse")
    expect(notified).toEqual([
      { tone: "success", title: "Success!", message: "Please follow the verification instructions sent to new@example.com" }
    ])
    expect(refreshUser).not.toHaveBeenCalled()
  })

  it("says so when nothing changed", async () => {
    const { submitWith, notified } = start(ok(false, false))
    await submitWith("correct horse")
    expect(notified).toEqual([NOTHING_CHANGED])
  })

  it.each([
    [
      "a wrong password (12)",
      { success: false, resultCode: 12, emailUpdatePending: false, usernameUpdated: false, detail: "Incorrect password" } as UpdateAnswer,
      "Incorrect password"
    ],
    [
      "a taken email (14)",
      { success: false, resultCode: 14, emailUpdatePending: false, usernameUpdated: false } as UpdateAnswer,
      "Please try again."
    ],
    [
      "a taken email with the server's reason, under SPEC's words",
      {
        success: false,
        resultCode: 14,
        emailUpdatePending: false,
        usernameUpdated: false,
        detail: "That email address is already registered to another account."
      } as UpdateAnswer,
      "Please try again.\nThat email address is already registered to another account."
    ],
    ["a 429: the server says why and for how long", refused(429, "Too many attempts.") as UpdateAnswer, "Too many attempts."],
    ["a network failure", OFFLINE, "Please try again."]
  ])("reports 'Failed to update' after %s and keeps the password typed", async (_, answer, message) => {
    const { actor, submitWith, notified, refreshUser } = start(answer)
    await submitWith("wrong password")
    expect(notified).toEqual([{ tone: "error", title: "Failed to update", message }])
    expect(selectProfileDetailsValues(actor.getSnapshot()).password).toBe("wrong password")
    expect(refreshUser).not.toHaveBeenCalled()
  })

  it("ignores a second submit while saving: one call, one set of news", async () => {
    const { actor, type, updateDetails, notified } = start(ok(false, true))
    type("username", "annie")
    type("password", "correct horse")
    actor.send({ type: "profileDetails.submit" })
    actor.send({ type: "profileDetails.submit" })
    expect(selectIsUpdatingDetails(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(updateDetails).toHaveBeenCalledTimes(1)
    expect(notified).toEqual([{ tone: "success", title: "Success!", message: "Username updated!" }])
  })

  it("names the first field the rules refused, in the form's order", () => {
    const { actor, type } = start(ok(false, false))
    type("email", "nope")
    actor.send({ type: "profileDetails.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("email")
    type("username", "")
    actor.send({ type: "profileDetails.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("username")
  })

  it("refuses a username or a password longer than the server takes, keeping SPEC's messages for the rest", () => {
    const { actor, type, updateDetails } = start(ok(false, false))
    type("username", "a".repeat(151))
    type("password", "x".repeat(1025))
    actor.send({ type: "profileDetails.submit" })
    expect(selectProfileDetailsErrors(actor.getSnapshot())).toEqual({
      username: "Username is too long. Use at most 150 characters.",
      password: "Password is too long. Use at most 1,024 characters."
    })
    // spaces around it are not sent, so they do not count; blank is still SPEC's message
    type("username", ` ${"a".repeat(150)} `)
    type("password", "")
    actor.send({ type: "profileDetails.submit" })
    expect(selectProfileDetailsErrors(actor.getSnapshot())).toEqual({ password: "Please enter your password." })
    type("username", " ".repeat(151))
    actor.send({ type: "profileDetails.submit" })
    expect(selectProfileDetailsErrors(actor.getSnapshot()).username).toBe("Please enter a username.")
    expect(updateDetails).not.toHaveBeenCalled()
  })
})
