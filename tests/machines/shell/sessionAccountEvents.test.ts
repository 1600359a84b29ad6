import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import { UserInfo } from "../../../src/domain/User.ts"
import type { LatestAnnouncement } from "../../../src/machines/shell/announcementMachine.ts"
import { announcementMachine } from "../../../src/machines/shell/announcementMachine.ts"
import {
  selectIsAuthenticated,
  selectIsLoggingOut,
  selectIsLoggingOutAll,
  selectUser,
  sessionMachine
} from "../../../src/machines/shell/sessionMachine.ts"
import { answers, fakeForbidden, user } from "../../support/machineFixtures.ts"

const noAnnouncement = announcementMachine.provide({
  actors: { loadLatest: fromPromise<LatestAnnouncement>(async () => ({ answer: answered({ resultCode: 24 }), lastSeenToken: null })) }
})

const start = (
  logoutAll: ReturnType<typeof answers<"logoutAll">>,
  loadUser = answers("userInfo", answered({ success: true, data: user }))
) => {
  const actions = { storeToken: vi.fn(), forgetToken: vi.fn(), reportLogoutFailure: vi.fn() }
  const logout = vi.fn(async (): Promise<Answer<"logout">> => answered({ success: true }))
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        announcement: noAnnouncement,
        loadUser,
        logout: fromPromise(logout),
        logoutAll,
        watchForbidden: fakeForbidden().watchForbidden
      },
      actions
    }),
    { input: { token: "stored" } }
  ).start()
  return { actor, actions, logout }
}

describe("sessionMachine: the account page's events", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("logs out all devices: only after success is the token removed and /login shown", async () => {
    const { actor, actions, logout } = start(answers("logoutAll", answered({ success: true })))
    await vi.runAllTimersAsync()
    actor.send({ type: "session.logoutAll" })
    expect(selectIsLoggingOutAll(actor.getSnapshot())).toBe(true)
    expect(selectIsLoggingOut(actor.getSnapshot())).toBe(false)
    actor.send({ type: "session.logout" })
    expect(actions.forgetToken).not.toHaveBeenCalled()
    await vi.runAllTimersAsync()
    expect(logout).not.toHaveBeenCalled()
    expect(actions.forgetToken).toHaveBeenCalledTimes(1)
    // anonymous, the authenticated area redirects to /login (RequireSession)
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false)
  })

  it.each([
    ["success false", answered({ success: false })],
    ["a failure body", refused(500, "Internal error")],
    ["a network failure", unreachable("network", "offline")]
  ] as ReadonlyArray<[string, Answer<"logoutAll">]>)("keeps the session after %s, writing only a console message", async (_, answer) => {
    const { actor, actions } = start(answers("logoutAll", answer))
    await vi.runAllTimersAsync()
    actor.send({ type: "session.logoutAll" })
    await vi.runAllTimersAsync()
    expect(actions.forgetToken).not.toHaveBeenCalled()
    expect(actions.reportLogoutFailure).toHaveBeenCalledTimes(1)
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    expect(selectIsLoggingOutAll(actor.getSnapshot())).toBe(false)
  })

  it("reads the user info again on request", async () => {
    const renamed = new UserInfo({ ...user, username: "annie" })
    const { actor } = start(
      answers("logoutAll", answered({ success: true })),
      answers("userInfo", answered({ success: true, data: user }), answered({ success: true, data: renamed }))
    )
    await vi.runAllTimersAsync()
    expect(selectUser(actor.getSnapshot())?.username).toBe("ann")
    actor.send({ type: "session.refreshUser" })
    await vi.runAllTimersAsync()
    expect(selectUser(actor.getSnapshot())?.username).toBe("annie")
  })
})
