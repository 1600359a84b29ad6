import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import { announcementMachine, type LatestAnnouncement, selectShownAnnouncement } from "../../../src/machines/shell/announcementMachine.ts"

const latest = { resultCode: 1, token: "a-1", title: "New channel", text: "Sports Two is live from today." } as const

/** One browser: the remembered token survives between visits, like localStorage would. */
const browser = () => {
  let lastSeen: string | null = null
  const visit = (answer: Answer<"announcement"> | Error) => {
    const remember = vi.fn((_: unknown, params: { token: string }) => {
      lastSeen = params.token
    })
    const actor = createActor(
      announcementMachine.provide({
        actors: {
          loadLatest: fromPromise<LatestAnnouncement>(async () => {
            if (answer instanceof Error) throw answer
            return { answer, lastSeenToken: lastSeen }
          })
        },
        actions: { rememberAnnouncement: remember }
      })
    ).start()
    return { actor, remember }
  }
  return { visit }
}

describe("announcementMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("shows a new announcement with its title and text, and stores its token on close", async () => {
    const { actor, remember } = browser().visit(answered(latest))
    await vi.runAllTimersAsync()
    expect(selectShownAnnouncement(actor.getSnapshot())).toEqual({
      token: "a-1",
      title: "New channel",
      text: "Sports Two is live from today."
    })
    actor.send({ type: "announcement.close" })
    expect(selectShownAnnouncement(actor.getSnapshot())).toBeNull()
    expect(remember.mock.calls.map((call) => call[1])).toEqual([{ token: "a-1" }])
  })

  it("is shown once per new token", async () => {
    const device = browser()
    const first = device.visit(answered(latest))
    await vi.runAllTimersAsync()
    first.actor.send({ type: "announcement.close" })

    const again = device.visit(answered(latest))
    await vi.runAllTimersAsync()
    expect(selectShownAnnouncement(again.actor.getSnapshot())).toBeNull()

    const next = device.visit(answered({ ...latest, token: "a-2", title: "Maintenance tonight" }))
    await vi.runAllTimersAsync()
    expect(selectShownAnnouncement(next.actor.getSnapshot())?.title).toBe("Maintenance tonight")
  })

  it("shows nothing when there is no announcement, it cannot be fetched or the stored token cannot be read", async () => {
    for (const answer of [
      answered({ resultCode: 24 }),
      refused(500, "x"),
      unreachable("network", "offline"),
      SESSION_ENDED,
      new Error("storage refused")
    ]) {
      const { actor } = browser().visit(answer)
      await vi.runAllTimersAsync()
      expect(actor.getSnapshot().value).toBe("hidden")
    }
  })
})
