import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered } from "../../../src/domain/contract/answer.ts"
import { UserInfo } from "../../../src/domain/User.ts"
import type { LatestAnnouncement } from "../../../src/machines/shell/announcementMachine.ts"
import { announcementMachine } from "../../../src/machines/shell/announcementMachine.ts"
import {
  selectIsAuthenticated,
  selectIsLoadingUser,
  selectLoginForm,
  selectUser,
  sessionMachine
} from "../../../src/machines/shell/sessionMachine.ts"
import { answers, fakeForbidden, user } from "../../support/machineFixtures.ts"

const other = new UserInfo({ ...user, email: "bob@example.com", username: "bob" })

/** The session as boot runs it, with the user info each token stands for, answered when the test says. */
const start = (token: string | null) => {
  const pending: Array<{ readonly token: string | null; readonly answer: () => void }> = []
  let current = token
  const loadUser = vi.fn(
    () =>
      new Promise<Answer<"userInfo">>((resolve) => {
        const asked = current
        pending.push({ token: asked, answer: () => resolve(answered({ success: true, data: asked === "link-session" ? other : user })) })
      })
  )
  const loadLatest = vi.fn(async (): Promise<LatestAnnouncement> => ({ answer: answered({ resultCode: 24 }), lastSeenToken: null }))
  const storeToken = vi.fn((_: unknown, params: { readonly token: string }) => {
    current = params.token
  })
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        announcement: announcementMachine.provide({ actors: { loadLatest: fromPromise(loadLatest) } }),
        loadUser: fromPromise(loadUser),
        logout: answers("logout", answered({ success: true })),
        watchForbidden: fakeForbidden().watchForbidden
      },
      actions: { storeToken, forgetToken: () => {} }
    }),
    { input: { token } }
  ).start()
  const answerAll = async () => {
    for (const call of pending.splice(0)) call.answer()
    await vi.runAllTimersAsync()
  }
  return { actor, loadUser, loadLatest, storeToken, pending, answerAll }
}

describe("sessionMachine and a token handed over by a page (a mailed sign-in link)", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("signs in a visitor without a session, as the login form does", async () => {
    const { actor, storeToken, answerAll } = start(null)
    expect(selectLoginForm(actor.getSnapshot())).toBeDefined()
    actor.send({ type: "login.succeeded", token: "link-session" })
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true)
    expect(actor.getSnapshot().context.token).toBe("link-session")
    expect(storeToken.mock.calls.map((call) => call[1])).toEqual([{ token: "link-session" }])
    await answerAll()
    expect(selectUser(actor.getSnapshot())).toEqual(other)
  })

  it("replaces a signed-in session: stores the new token and reads the user and the announcement again", async () => {
    const { actor, storeToken, loadUser, loadLatest, answerAll } = start("stored")
    await answerAll()
    expect(selectUser(actor.getSnapshot())).toEqual(user)
    expect(loadLatest).toHaveBeenCalledTimes(1)

    actor.send({ type: "login.succeeded", token: "link-session" })
    expect(actor.getSnapshot().context).toEqual({ token: "link-session", user: null })
    expect(storeToken.mock.calls.map((call) => call[1])).toEqual([{ token: "link-session" }])
    expect(selectIsLoadingUser(actor.getSnapshot())).toBe(true)
    await answerAll()
    expect(loadUser).toHaveBeenCalledTimes(2)
    expect(loadLatest).toHaveBeenCalledTimes(2)
    expect(actor.getSnapshot().matches({ authenticated: "idle" })).toBe(true)
    expect(selectUser(actor.getSnapshot())).toEqual(other)
  })

  it("drops the old token's answer when the new token arrives while it is still being checked", async () => {
    const { actor, loadUser, pending, answerAll } = start("stored")
    expect(actor.getSnapshot().matches({ authenticated: "checking" })).toBe(true)
    actor.send({ type: "login.succeeded", token: "link-session" })
    expect(pending.map((call) => call.token)).toEqual(["stored", "link-session"])
    await answerAll()
    expect(loadUser).toHaveBeenCalledTimes(2)
    expect(actor.getSnapshot().matches({ authenticated: "idle" })).toBe(true)
    expect(selectUser(actor.getSnapshot())).toEqual(other)
    expect(actor.getSnapshot().context.token).toBe("link-session")
  })
})
