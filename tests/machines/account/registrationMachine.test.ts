import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { NETWORK_FAILURE_DETAIL } from "../../../src/adapters/http/http.ts"
import { refused } from "../../../src/domain/contract/answer.ts"
import type { BodyOf } from "../../../src/domain/contract/api.ts"
import {
  EMAIL_TAKEN_MESSAGE,
  INVITE_CHECK_FAILED_MESSAGE,
  INVITE_UNREACHABLE_MESSAGE,
  REGISTRATION_FAILED_MESSAGE,
  registrationMachine,
  selectDerivedUsername,
  selectFirstInvalidField,
  selectIsRegistering,
  selectRegisteredEmail,
  selectRegistrationAlert,
  selectRegistrationErrors,
  selectRegistrationFailure,
  selectRegistrationStep
} from "../../../src/machines/account/registrationMachine.ts"
import { OFFLINE, type Reply, toAnswer } from "../../support/answers.ts"

type RegisterAnswer = Reply<"register">

type InviteAnswer = Reply<"invitation">

const start = ({
  invite = { success: true, resultCode: 1, detail: "Invite code is valid" } as InviteAnswer | (() => InviteAnswer),
  answer = { success: true, resultCode: 1 } as RegisterAnswer
} = {}) => {
  const checkInvite = vi.fn(async (_: { readonly token: string }) => {
    const next = typeof invite === "function" ? invite() : invite
    return toAnswer<"invitation">(next)
  })
  const register = vi.fn(async (_: BodyOf<"register">) => {
    return toAnswer<"register">(answer)
  })
  const actor = createActor(
    registrationMachine.provide({
      actors: {
        checkInvite: fromPromise(({ input }) => checkInvite(input)),
        register: fromPromise(({ input }) => register(input))
      }
    }),
    { input: { invite: "good-invite" } }
  ).start()
  const fill = (email: string, password: string, confirmPassword = password) => {
    actor.send({ type: "registration.change", field: "email", value: email })
    actor.send({ type: "registration.change", field: "password", value: password })
    actor.send({ type: "registration.change", field: "confirmPassword", value: confirmPassword })
  }
  return { actor, register, checkInvite, fill }
}

describe("registrationMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("checks the invite before showing the form", async () => {
    const { actor, checkInvite } = start()
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("checkingInvite")
    expect(actor.getSnapshot().hasTag("busy")).toBe(true)
    await vi.runAllTimersAsync()
    expect(checkInvite).toHaveBeenCalledWith({ token: "good-invite" })
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("form")
  })

  it.each([
    ["code 7", { success: false, resultCode: 7, detail: "This invite link no longer works." }, "This invite link no longer works."],
    ["code 6", { success: false, resultCode: 6, detail: "This invite link is not valid." }, "This invite link is not valid."],
    ["no detail", { success: false, resultCode: 7 }, INVITE_CHECK_FAILED_MESSAGE]
  ] as const)("ends in the error state with the server detail for an invite refused with %s", async (_, answer, detail) => {
    const { actor } = start({ invite: answer as InviteAnswer })
    await vi.runAllTimersAsync()
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("error")
    expect(selectRegistrationFailure(actor.getSnapshot())).toEqual({ detail, emailTaken: false })
  })

  it.each([
    [
      "a 429",
      refused(429, "Too many attempts from your network. Try again in 40 seconds."),
      "Too many attempts from your network. Try again in 40 seconds."
    ],
    ["a server error", refused(503, "Service unavailable"), "Please try again in a moment."],
    ["a network failure", OFFLINE, "Check your connection and try again."]
  ] as const)("offers to check the invite again after %s, which says nothing of the invite", async (_, answer, hint) => {
    let calls = 0
    const { actor } = start({ invite: () => (calls++ === 0 ? (answer as InviteAnswer) : { success: true, resultCode: 1 }) })
    await vi.runAllTimersAsync()
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("unreachable")
    expect(selectRegistrationFailure(actor.getSnapshot())).toEqual({ detail: `${INVITE_UNREACHABLE_MESSAGE} ${hint}`, emailTaken: false })
    actor.send({ type: "registration.retry" })
    await vi.runAllTimersAsync()
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("form")
  })

  it("validates with the exact messages and calls nothing while invalid", async () => {
    const { actor, fill, register } = start()
    await vi.runAllTimersAsync()
    fill("not-an-email", "short", "other")
    actor.send({ type: "registration.submit" })
    expect(register).not.toHaveBeenCalled()
    expect(selectRegistrationErrors(actor.getSnapshot())).toEqual({
      email: "Enter a valid email address.",
      password: "Password length too short",
      confirmPassword: "Passwords do not match"
    })
    actor.send({ type: "registration.change", field: "password", value: "longenough" })
    expect(selectRegistrationErrors(actor.getSnapshot())).toEqual({
      email: "Enter a valid email address.",
      confirmPassword: "Passwords do not match"
    })
  })

  it("sends a lower-cased email, the username before the @ and the invite; then complete", async () => {
    const { actor, fill, register } = start()
    await vi.runAllTimersAsync()
    fill("  New.Member@Example.COM ", "longenough")
    expect(selectDerivedUsername(actor.getSnapshot())).toBe("new.member")
    actor.send({ type: "registration.submit" })
    expect(selectIsRegistering(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(register).toHaveBeenCalledWith({
      username: "new.member",
      email: "new.member@example.com",
      password: "longenough",
      invitationToken: "good-invite"
    })
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("complete")
    expect(selectRegisteredEmail(actor.getSnapshot())).toBe("new.member@example.com")
    expect(actor.getSnapshot().status).toBe("done")
  })

  it("offers the login page when the email is already registered", async () => {
    const { actor, fill } = start({ answer: { success: false, resultCode: 14, detail: "EMAIL_ALREADY_REGISTERED" } })
    await vi.runAllTimersAsync()
    fill("ann@example.com", "longenough")
    actor.send({ type: "registration.submit" })
    await vi.runAllTimersAsync()
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("error")
    expect(selectRegistrationFailure(actor.getSnapshot())).toEqual({ detail: EMAIL_TAKEN_MESSAGE, emailTaken: true })
  })

  it("ends in the error state with the detail of any other refusal", async () => {
    const { actor, fill } = start({ answer: { success: false, resultCode: 7, detail: "This invite link no longer works." } })
    await vi.runAllTimersAsync()
    fill("bob@example.com", "longenough")
    actor.send({ type: "registration.submit" })
    await vi.runAllTimersAsync()
    expect(selectRegistrationFailure(actor.getSnapshot())).toEqual({ detail: "This invite link no longer works.", emailTaken: false })
  })

  it.each([
    ["a 429", refused(429, "Too many sign-up attempts.") as RegisterAnswer, "Too many sign-up attempts."],
    ["a network failure", OFFLINE, NETWORK_FAILURE_DETAIL],
    ["a server error without a detail", refused(502, ""), REGISTRATION_FAILED_MESSAGE]
  ])("keeps the form and what was typed after %s", async (_, answer, alert) => {
    const { actor, fill } = start({ answer })
    await vi.runAllTimersAsync()
    fill("bob@example.com", "longenough")
    actor.send({ type: "registration.submit" })
    await vi.runAllTimersAsync()
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("form")
    expect(selectRegistrationAlert(actor.getSnapshot())).toBe(alert)
    expect(actor.getSnapshot().context.values.email).toBe("bob@example.com")
    actor.send({ type: "registration.submit" })
    expect(selectRegistrationAlert(actor.getSnapshot())).toBeNull()
  })

  it("ignores a second submit while the account is being created", async () => {
    const { actor, fill, register } = start()
    await vi.runAllTimersAsync()
    fill("bob@example.com", "longenough")
    actor.send({ type: "registration.submit" })
    actor.send({ type: "registration.submit" })
    expect(selectIsRegistering(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(register).toHaveBeenCalledTimes(1)
    expect(selectRegistrationStep(actor.getSnapshot())).toBe("complete")
  })

  it("names the first field the rules refused, and drops old messages once the rules pass", async () => {
    const { actor, fill } = start({ answer: OFFLINE })
    await vi.runAllTimersAsync()
    fill("bob@example.com", "short", "other")
    actor.send({ type: "registration.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("password")
    fill("bob@example.com", "longenough", "otherother")
    actor.send({ type: "registration.submit" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("confirmPassword")
    // changing the password to match leaves the confirmation's message until the next submit
    actor.send({ type: "registration.change", field: "password", value: "otherother" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("confirmPassword")
    actor.send({ type: "registration.submit" })
    expect(selectRegistrationErrors(actor.getSnapshot())).toEqual({})
    expect(selectFirstInvalidField(actor.getSnapshot())).toBeUndefined()
  })

  it("refuses a password longer than the server takes, with its own message", async () => {
    const { actor, fill, register } = start()
    await vi.runAllTimersAsync()
    fill("bob@example.com", "x".repeat(1025))
    actor.send({ type: "registration.submit" })
    expect(selectRegistrationErrors(actor.getSnapshot())).toEqual({ password: "Password is too long. Use at most 1,024 characters." })
    expect(register).not.toHaveBeenCalled()
  })
})
