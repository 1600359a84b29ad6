import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import type { CallResult } from "../../../src/domain/api.ts"
import { announcementMachine, type LatestAnnouncement, selectShownAnnouncement } from "../../../src/machines/shell/announcementMachine.ts"

const latest: CallResult<"announcement"> = { resultCode: 1, token: "a-1", title: "New channel", text: "Sports Two is live from today." }

/** One browser: the remembered token survives between visits, like localStorage would. */
const browser = () => {
  let lastSeen: string | null = null
  const visit = (answer: CallResult<"announcement"> | undefined | Error) => {
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
    const { actor, remember } = browser().visit(latest)
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
    const first = device.visit(latest)
    await vi.runAllTimersAsync()
    first.actor.send({ type: "announcement.close" })

    const again = device.visit(latest)
    await vi.runAllTimersAsync()
    expect(selectShownAnnouncement(again.actor.getSnapshot())).toBeNull()

    const next = device.visit({ ...latest, token: "a-2", title: "Maintenance tonight" })
    await vi.runAllTimersAsync()
    expect(selectShownAnnouncement(next.actor.getSnapshot())?.title).toBe("Maintenance tonight")
  })

  it("shows nothing when there is no announcement or it cannot be fetched", async () => {
    for (const answer of [{ resultCode: 24 }, { success: false as const, status: 500, detail: "x" }, undefined, new Error("offline")]) {
      const { actor } = browser().visit(answer)
      await vi.runAllTimersAsync()
      expect(actor.getSnapshot().value).toBe("hidden")
    }
  })
})
