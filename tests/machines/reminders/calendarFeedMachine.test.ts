import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused } from "../../../src/domain/contract/answer.ts"
import { COPIED_MESSAGE, COPY_FAILED_MESSAGE } from "../../../src/domain/Invitation.ts"
import { CALENDAR_FEED_FAILED_MESSAGE, CALENDAR_FEED_REVOKED } from "../../../src/domain/Reminder.ts"
import {
  calendarFeedMachine,
  FEED_MADE,
  FEED_NOT_MADE,
  selectFeed,
  selectFeedBusy,
  selectFeedStatus
} from "../../../src/machines/reminders/calendarFeedMachine.ts"
import { RETRY_HINT } from "../../../src/machines/shared/answer.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"

const URL_ONE = "https://tv.example.test/calendar/aaaa.ics"
const URL_TWO = "https://tv.example.test/calendar/bbbb.ics"
const NONE = answered({ success: true, data: { active: false, createdAt: null } })

interface Fakes {
  readonly load?: ReadonlyArray<Answer<"calendarFeed">>
  readonly create?: () => Promise<Answer<"createCalendarFeed">>
  readonly copy?: (text: string) => Promise<void>
}

const start = (fakes: Fakes = {}) => {
  const notices: Array<NotificationContent> = []
  const copied: Array<string> = []
  let loads = 0
  let made = 0
  const actor = createActor(
    calendarFeedMachine.provide({
      actors: {
        loadFeed: fromPromise(async () => {
          const answers = fakes.load ?? [NONE]
          const answer = answers[Math.min(loads, answers.length - 1)]
          loads += 1
          if (answer === undefined) throw new Error("no answer")
          return answer
        }),
        createFeed: fromPromise(async () => {
          made += 1
          return (
            fakes.create?.() ??
            answered({
              success: true,
              data: { active: true, createdAt: `2026-11-28T1${made}:00:00.000Z`, url: made === 1 ? URL_ONE : URL_TWO }
            })
          )
        }),
        revokeFeed: fromPromise(
          async (): Promise<Answer<"revokeCalendarFeed">> => answered({ success: true, detail: CALENDAR_FEED_REVOKED })
        ),
        copyText: fromPromise(async ({ input }) => {
          copied.push(input.text)
          await fakes.copy?.(input.text)
        })
      },
      actions: { notify: (_, content) => void notices.push(content) }
    })
  ).start()
  return { actor, notices, copied }
}

const settled = (actor: ReturnType<typeof start>["actor"]) =>
  waitFor(actor, (snapshot) => selectFeedStatus(snapshot) !== "loading" && !selectFeedBusy(snapshot) && !snapshot.matches("copying"))

describe("calendarFeedMachine", () => {
  it("makes a feed, shows its address once to copy, replaces it, and turns it off", async () => {
    const { actor, notices, copied } = start()
    expect(selectFeedStatus(await settled(actor))).toBe("none")
    actor.send({ type: "feed.create" })
    expect(selectFeedBusy(actor.getSnapshot())).toBe(true)
    const made = await settled(actor)
    expect(selectFeedStatus(made)).toBe("active")
    expect(selectFeed(made)).toEqual({ createdAt: "2026-11-28T11:00:00.000Z", url: URL_ONE, error: null })
    actor.send({ type: "feed.copy" })
    await settled(actor)
    expect(copied).toEqual([URL_ONE])
    actor.send({ type: "feed.create" })
    expect(selectFeed(await settled(actor)).url).toBe(URL_TWO)
    actor.send({ type: "feed.revoke" })
    const off = await settled(actor)
    expect(selectFeedStatus(off)).toBe("none")
    expect(selectFeed(off)).toEqual({ createdAt: null, url: null, error: null })
    expect(notices.map((n) => n.title)).toEqual([FEED_MADE, COPIED_MESSAGE, FEED_MADE, CALENDAR_FEED_REVOKED])
  })

  it("knows a feed made earlier, whose address it cannot show, and cannot copy it", async () => {
    const { actor, copied } = start({ load: [answered({ success: true, data: { active: true, createdAt: "2026-11-01T10:00:00.000Z" } })] })
    const loaded = await settled(actor)
    expect(selectFeedStatus(loaded)).toBe("active")
    expect(selectFeed(loaded).url).toBeNull()
    actor.send({ type: "feed.copy" })
    expect(actor.getSnapshot().matches("active")).toBe(true)
    expect(copied).toEqual([])
  })

  it("says why the feed could not be loaded, retries, and stays as it was when making one fails", async () => {
    const { actor, notices } = start({
      load: [refused(503, "Service unavailable"), NONE],
      create: async () => refused(500, "Internal server error")
    })
    const failed = await settled(actor)
    expect(selectFeedStatus(failed)).toBe("failed")
    expect(selectFeed(failed).error).toBe(`${CALENDAR_FEED_FAILED_MESSAGE} ${RETRY_HINT}`)
    actor.send({ type: "feed.retry" })
    expect(selectFeedStatus(await settled(actor))).toBe("none")
    actor.send({ type: "feed.create" })
    expect(selectFeedStatus(await settled(actor))).toBe("none")
    expect(notices).toEqual([{ tone: "error", title: FEED_NOT_MADE, message: "Internal server error" }])
  })

  it("says when the clipboard refused the address", async () => {
    const { actor, notices } = start({
      copy: async () => {
        throw new Error("denied")
      }
    })
    await settled(actor)
    actor.send({ type: "feed.create" })
    await settled(actor)
    actor.send({ type: "feed.copy" })
    expect(selectFeedStatus(await settled(actor))).toBe("active")
    expect(notices.at(-1)).toEqual({ tone: "error", title: COPY_FAILED_MESSAGE, message: "" })
  })
})
