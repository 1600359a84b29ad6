import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import { UserInfo } from "../../../src/domain/User.ts"
import { type Credentials, loginFormMachine } from "../../../src/machines/account/loginFormMachine.ts"
import type { LatestAnnouncement } from "../../../src/machines/shell/announcementMachine.ts"
import { announcementMachine } from "../../../src/machines/shell/announcementMachine.ts"
import {
  selectIsAuthenticated,
  selectIsCheckingSession,
  selectIsLoadingUser,
  selectIsLoggingOut,
  selectIsStaff,
  selectLoginForm,
  selectUser,
  sessionMachine
} from "../../../src/machines/shell/sessionMachine.ts"
import { answers, fakeForbidden, user } from "../../support/machineFixtures.ts"

const noAnnouncement = announcementMachine.provide({
  actors: { loadLatest: fromPromise<LatestAnnouncement>(async () => ({ answer: answered({ resultCode: 24 }), lastSeenToken: null })) }
})

const start = ({
  token = null as string | null,
  login = vi.fn(async (_: Credentials): Promise<Answer<"login">> => answered({ success: true, resultCode: 1, token: "new-token" })),
  logout = answers("logout", answered({ success: true })),
  loadUser = answers("userInfo", answered({ success: true, data: user }))
} = {}) => {
  const actions = { storeToken: vi.fn(), forgetToken: vi.fn(), reportLogoutFailure: vi.fn() }
  const forbidden = fakeForbidden()
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        loginForm: loginFormMachine.provide({ actors: { login: fromPromise(({ input }) => login(input)) } }),
        announcement: noAnnouncement,
        loadUser,
        logout,
        watchForbidden: forbidden.watchForbidden
      },
      actions
    }),
    { input: { token } }
  ).start()
  return { actor, actions, login, forbidden }
}

const paramsOf = (spy: ReturnType<typeof vi.fn>) => spy.mock.calls.map((call) => call[1])

describe("sessionMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("starts anonymous with a login form when no token is stored", () => {
    const { actor } = start()
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false)
    expect(selectLoginForm(actor.getSnapshot())).toBeDefined()
  })

  it("starts authenticated with a stored token and loads the user, checking the token meanwhile", async () => {
    const { actor } = start({ token: "stored" })
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    expect(selectIsCheckingSession(actor.getSnapshot())).toBe(true)
    expect(selectIsLoadingUser(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(selectIsCheckingSession(actor.getSnapshot())).toBe(false)
    expect(selectUser(actor.getSnapshot())).toEqual(user)
    expect(selectIsStaff(actor.getSnapshot())).toBe(false)
  })

  it("asks for the user info again when the account changed while it was being loaded", async () => {
    let calls = 0
    const loadUser = fromPromise<Answer<"userInfo">>(async () => {
      calls += 1
      return answered({ success: true, data: new UserInfo({ ...user, email: calls === 1 ? user.email : "new@example.com" }) })
    })
    const { actor } = start({ token: "stored", loadUser })
    actor.send({ type: "session.refreshUser" })
    await vi.runAllTimersAsync()
    expect(calls).toBe(2)
    expect(selectUser(actor.getSnapshot())?.email).toBe("new@example.com")
  })

  it("ends a stored token's session when its check meets a 403", async () => {
    const { actor, actions, forbidden } = start({ token: "stored", loadUser: answers("userInfo", SESSION_ENDED) })
    expect(selectIsCheckingSession(actor.getSnapshot())).toBe(true)
    forbidden.forbid()
    expect(selectIsCheckingSession(actor.getSnapshot())).toBe(false)
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false)
    expect(actions.forgetToken).toHaveBeenCalledTimes(1)
  })

  it("signs in with a lower-cased email, stores the token and goes to /", async () => {
    const { actor, actions, login } = start()
    const form = selectLoginForm(actor.getSnapshot())
    form?.send({ type: "login.change", field: "email", value: "  Ann@Example.COM " })
    form?.send({ type: "login.change", field: "password", value: "correct horse" })
    form?.send({ type: "login.submit" })
    await vi.runAllTimersAsync()

    expect(login).toHaveBeenCalledWith({ email: "ann@example.com", password: "correct horse" })
    // a token the server has just issued needs no check: /login turns away at once
    expect(selectIsCheckingSession(actor.getSnapshot())).toBe(false)
    expect(paramsOf(actions.storeToken)).toEqual([{ token: "new-token" }])
    // authenticated, /login redirects to / (RedirectIfAuthenticated)
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    expect(actor.getSnapshot().context.token).toBe("new-token")
    expect(selectUser(actor.getSnapshot())).toEqual(user)
  })

  it("logs out only after the server says success: token removed, then /login", async () => {
    const { actor, actions } = start({ token: "stored" })
    await vi.runAllTimersAsync()
    actor.send({ type: "session.logout" })
    expect(selectIsLoggingOut(actor.getSnapshot())).toBe(true)
    expect(actions.forgetToken).not.toHaveBeenCalled()
    await vi.runAllTimersAsync()

    expect(actions.forgetToken).toHaveBeenCalledTimes(1)
    // anonymous, the authenticated area redirects to /login (RequireSession)
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false)
    expect(selectUser(actor.getSnapshot())).toBeNull()
  })

  it.each([
    ["success false", answered({ success: false })],
    ["a failure body", refused(500, "Internal error")],
    ["a network failure", unreachable("network", "offline")]
  ] as ReadonlyArray<[string, Answer<"logout">]>)(
    "keeps the session after a logout answered with %s, writing only a console message",
    async (_, answer) => {
      const { actor, actions } = start({ token: "stored", logout: answers("logout", answer) })
      await vi.runAllTimersAsync()
      actor.send({ type: "session.logout" })
      await vi.runAllTimersAsync()

      expect(actions.forgetToken).not.toHaveBeenCalled()
      expect(actions.reportLogoutFailure).toHaveBeenCalledTimes(1)
      expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
      expect(selectIsLoggingOut(actor.getSnapshot())).toBe(false)
    }
  )

  it("writes the failed logout to the console by default", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          announcement: noAnnouncement,
          loadUser: answers("userInfo", unreachable("network", "offline")),
          logout: answers("logout", answered({ success: false, detail: "nope" })),
          watchForbidden: fakeForbidden().watchForbidden
        }
      }),
      { input: { token: "stored" } }
    ).start()
    actor.send({ type: "session.logout" })
    await vi.runAllTimersAsync()
    expect(error).toHaveBeenCalledWith("Logout failed: nope")
    error.mockRestore()
  })

  it("ends the session when any call meets a 403, and watches for 403s only while signed in", async () => {
    const { actor, actions, forbidden } = start({ token: "stored" })
    await vi.runAllTimersAsync()
    expect(forbidden.watching()).toBe(1)
    forbidden.forbid()
    expect(actions.forgetToken).toHaveBeenCalledTimes(1)
    // anonymous, the authenticated area redirects to /login (RequireSession)
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false)
    expect(forbidden.watching()).toBe(0)
    expect(actor.getSnapshot().context.token).toBeNull()
    expect(selectLoginForm(actor.getSnapshot())).toBeDefined()
  })

  it("stays usable when the user info cannot be loaded", async () => {
    const { actor } = start({ token: "stored", loadUser: answers("userInfo", refused(500, "x")) })
    await vi.runAllTimersAsync()
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    expect(selectUser(actor.getSnapshot())).toBeNull()
    expect(selectIsStaff(actor.getSnapshot())).toBe(false)
  })

  it("knows staff from the user info", async () => {
    const { actor } = start({
      token: "stored",
      loadUser: answers("userInfo", answered({ success: true, data: new UserInfo({ ...user, is_staff: true }) }))
    })
    await vi.runAllTimersAsync()
    expect(selectIsStaff(actor.getSnapshot())).toBe(true)
  })
})
