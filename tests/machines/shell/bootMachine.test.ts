import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromCallback, fromPromise } from "xstate"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import { MaintenanceStatus } from "../../../src/domain/Maintenance.ts"
import { DEFAULT_SITE_SETTINGS } from "../../../src/domain/SiteSettings.ts"
import {
  BOOT_BROKEN_MESSAGE,
  BOOT_FAILURE_MESSAGE,
  bootMachine,
  MAINTENANCE_RECHECK_MS,
  selectBootError,
  selectIsBooting,
  selectMaintenanceNotice,
  selectSession,
  selectSettings
} from "../../../src/machines/shell/bootMachine.ts"
import { sessionMachine } from "../../../src/machines/shell/sessionMachine.ts"
import { answers, fakeForbidden, user } from "../../support/machineFixtures.ts"

const status = (maintenanceMode: boolean) =>
  answered(
    new MaintenanceStatus({
      maintenanceMode,
      title: "We'll be right back",
      firstRowText: "The service is being upgraded.",
      secondRowText: "Please check again in an hour."
    })
  )
const OFFLINE = unreachable("network", "offline")

/** The real session with nothing behind it: enough to see that boot starts it. */
const idleSession = sessionMachine.provide({
  actors: { loadUser: answers("userInfo", OFFLINE), logout: answers("logout", OFFLINE), watchForbidden: fakeForbidden().watchForbidden }
})

/** The tab as the boot machine hears of it: `show()` is the tab being shown again. */
const fakeVisibility = () => {
  const listeners = new Set<() => void>()
  return {
    watchVisibility: fromCallback(({ sendBack }) => {
      const listener = () => sendBack({ type: "page.visible" })
      listeners.add(listener)
      return () => listeners.delete(listener)
    }),
    show: () => {
      for (const listener of listeners) listener()
    },
    watchers: () => listeners.size
  }
}

const start = (answers: Array<Answer<"maintenance">>, settings: Answer<"siteSettings"> = OFFLINE) => {
  const visibility = fakeVisibility()
  const checkMaintenance = vi.fn(async (): Promise<Answer<"maintenance">> => {
    const answer = answers.shift()
    if (answer === undefined) throw new Error("no answer given")
    return answer
  })
  const loadSettings = vi.fn(async (): Promise<Answer<"siteSettings">> => settings)
  const actor = createActor(
    bootMachine.provide({
      actors: {
        checkMaintenance: fromPromise(checkMaintenance),
        loadSettings: fromPromise(loadSettings),
        watchVisibility: visibility.watchVisibility,
        session: idleSession
      }
    }),
    { input: { token: null } }
  ).start()
  return { actor, checkMaintenance, loadSettings, visibility }
}

describe("bootMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("checks maintenance first and shows only the notice when it is on", async () => {
    const { actor, loadSettings } = start([status(true)])
    expect(selectIsBooting(actor.getSnapshot())).toBe(true)
    await vi.advanceTimersByTimeAsync(0)
    const snapshot = actor.getSnapshot()
    expect(snapshot.matches("maintenance")).toBe(true)
    expect(selectMaintenanceNotice(snapshot)).toEqual({
      title: "We'll be right back",
      firstRowText: "The service is being upgraded.",
      secondRowText: "Please check again in an hour."
    })
    // nothing else runs: no settings call, no session
    expect(loadSettings).not.toHaveBeenCalled()
    expect(selectSession(snapshot)).toBeUndefined()
  })

  it("asks again every 30 seconds while the notice shows, keeps it on a failed check, and leaves by itself once maintenance is over", async () => {
    const later = answered(
      new MaintenanceStatus({ maintenanceMode: true, title: "Nearly done", firstRowText: "Last checks.", secondRowText: "Minutes now." })
    )
    const { actor, checkMaintenance, loadSettings } = start([status(true), later, OFFLINE, status(false)])
    await vi.advanceTimersByTimeAsync(0)
    expect(checkMaintenance).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(MAINTENANCE_RECHECK_MS - 1)
    expect(checkMaintenance).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(checkMaintenance).toHaveBeenCalledTimes(2)
    // the notice follows what the server says now
    expect(selectMaintenanceNotice(actor.getSnapshot())?.title).toBe("Nearly done")
    await vi.advanceTimersByTimeAsync(MAINTENANCE_RECHECK_MS)
    expect(checkMaintenance).toHaveBeenCalledTimes(3)
    expect(selectMaintenanceNotice(actor.getSnapshot())?.title).toBe("Nearly done")
    expect(selectBootError(actor.getSnapshot())).toBeNull()
    expect(loadSettings).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(MAINTENANCE_RECHECK_MS)
    expect(checkMaintenance).toHaveBeenCalledTimes(4)
    expect(actor.getSnapshot().value).toBe("ready")
    expect(selectMaintenanceNotice(actor.getSnapshot())).toBeNull()
    expect(selectSession(actor.getSnapshot())).toBeDefined()
    // no more checks once the app runs
    await vi.advanceTimersByTimeAsync(MAINTENANCE_RECHECK_MS * 3)
    expect(checkMaintenance).toHaveBeenCalledTimes(4)
  })

  it("asks again at once when the tab is shown again, and stops watching the tab once maintenance is over", async () => {
    const { actor, checkMaintenance, visibility } = start([status(true), status(false)])
    await vi.advanceTimersByTimeAsync(0)
    expect(visibility.watchers()).toBe(1)
    visibility.show()
    await vi.advanceTimersByTimeAsync(0)
    expect(checkMaintenance).toHaveBeenCalledTimes(2)
    expect(actor.getSnapshot().value).toBe("ready")
    expect(visibility.watchers()).toBe(0)
  })

  it("becomes ready with the site settings and a session when maintenance is off", async () => {
    const settings = { ...DEFAULT_SITE_SETTINGS, siteName: "Matchday", scheduleUrl: "https://schedule.example/" }
    const { actor } = start([status(false)], answered({ success: true, data: settings }))
    await vi.runAllTimersAsync()
    const snapshot = actor.getSnapshot()
    expect(snapshot.value).toBe("ready")
    expect(selectMaintenanceNotice(snapshot)).toBeNull()
    expect(selectSettings(snapshot)).toEqual(settings)
    expect(selectSession(snapshot)?.getSnapshot().value).toBe("anonymous")
  })

  it("keeps the default settings when they cannot be loaded", async () => {
    const { actor } = start([status(false)], refused(500, "boom"))
    await vi.runAllTimersAsync()
    expect(actor.getSnapshot().value).toBe("ready")
    expect(selectSettings(actor.getSnapshot())).toEqual(DEFAULT_SITE_SETTINGS)
  })

  it("shows a retryable error, not a blank page, when the check fails", async () => {
    const { actor, checkMaintenance } = start([OFFLINE, status(false)])
    await vi.runAllTimersAsync()
    expect(actor.getSnapshot().value).toBe("failed")
    // said once, in our words: the adapter's own detail is not repeated after it
    expect(selectBootError(actor.getSnapshot())).toBe(BOOT_FAILURE_MESSAGE)
    expect(BOOT_FAILURE_MESSAGE).toBe("We could not reach the service. Please check your connection and try again.")

    actor.send({ type: "boot.retry" })
    expect(selectBootError(actor.getSnapshot())).toBeNull()
    await vi.runAllTimersAsync()
    expect(actor.getSnapshot().value).toBe("ready")
    expect(checkMaintenance).toHaveBeenCalledTimes(2)
  })

  it.each([
    ["a proxy's HTML page (SPEC's 'content type' fallback)", refused(404, "content type"), BOOT_BROKEN_MESSAGE],
    ["a server error", refused(500, "Internal server error"), BOOT_BROKEN_MESSAGE],
    [
      "a rate limit, whose reason is the server's",
      refused(429, "Too many requests. Try again in 12 seconds."),
      "Too many requests. Try again in 12 seconds."
    ]
  ] as const)("says what failed in plain words after %s", async (_, answer, message) => {
    const { actor } = start([answer])
    await vi.runAllTimersAsync()
    expect(selectBootError(actor.getSnapshot())).toBe(message)
  })

  it("says the service could not be reached when the check got no answer in time", async () => {
    const { actor } = start([unreachable("timeout", "The server took too long to answer.")])
    await vi.runAllTimersAsync()
    expect(selectBootError(actor.getSnapshot())).toBe(BOOT_FAILURE_MESSAGE)
  })

  it("hands the stored token to the session", async () => {
    const actor = createActor(
      bootMachine.provide({
        actors: {
          checkMaintenance: answers("maintenance", status(false)),
          loadSettings: answers("siteSettings", OFFLINE),
          session: idleSession
        }
      }),
      { input: { token: "stored-token" } }
    ).start()
    await vi.runAllTimersAsync()
    const session = selectSession(actor.getSnapshot())
    expect(session?.getSnapshot().context.token).toBe("stored-token")
    expect(session?.getSnapshot().matches("authenticated")).toBe(true)
  })
})

describe("bootMachine, once ready, forwards to the session", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const ready = async (token: string | null) => {
    const storeToken = vi.fn()
    const loadUser = vi.fn(async (): Promise<Answer<"userInfo">> => answered({ success: true, data: user }))
    const actor = createActor(
      bootMachine.provide({
        actors: {
          checkMaintenance: answers("maintenance", status(false)),
          loadSettings: answers("siteSettings", OFFLINE),
          session: sessionMachine.provide({
            actors: { loadUser: fromPromise(loadUser), logout: answers("logout", OFFLINE), watchForbidden: fakeForbidden().watchForbidden },
            actions: { storeToken }
          })
        }
      }),
      { input: { token } }
    ).start()
    await vi.runAllTimersAsync()
    return { actor, storeToken, loadUser }
  }

  it("a token a page signed in with (login.succeeded), which makes the visitor signed in", async () => {
    const { actor, storeToken, loadUser } = await ready(null)
    expect(selectSession(actor.getSnapshot())?.getSnapshot().matches("anonymous")).toBe(true)
    actor.send({ type: "login.succeeded", token: "link-session" })
    await vi.runAllTimersAsync()
    const session = selectSession(actor.getSnapshot())?.getSnapshot()
    expect(session?.matches({ authenticated: "idle" })).toBe(true)
    expect(session?.context).toEqual({ token: "link-session", user })
    expect(storeToken.mock.calls.map((call) => call[1])).toEqual([{ token: "link-session" }])
    expect(loadUser).toHaveBeenCalledTimes(1)
  })

  it("a token a page signed in with while another session was open, which replaces it", async () => {
    const { actor, storeToken, loadUser } = await ready("stored-token")
    expect(loadUser).toHaveBeenCalledTimes(1)
    actor.send({ type: "login.succeeded", token: "link-session" })
    await vi.runAllTimersAsync()
    const session = selectSession(actor.getSnapshot())?.getSnapshot()
    expect(session?.matches({ authenticated: "idle" })).toBe(true)
    expect(session?.context.token).toBe("link-session")
    expect(storeToken.mock.calls.map((call) => call[1])).toEqual([{ token: "link-session" }])
    expect(loadUser).toHaveBeenCalledTimes(2)
  })

  it("nothing before it is ready: a sign-in during the maintenance check is not kept", async () => {
    const actor = createActor(
      bootMachine.provide({
        actors: {
          checkMaintenance: answers("maintenance", status(true)),
          loadSettings: answers("siteSettings", OFFLINE),
          watchVisibility: fakeVisibility().watchVisibility,
          session: idleSession
        }
      }),
      { input: { token: null } }
    ).start()
    actor.send({ type: "login.succeeded", token: "too-early" })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().matches("maintenance")).toBe(true)
    expect(selectSession(actor.getSnapshot())).toBeUndefined()
  })
})
