import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { answered, unreachable } from "../../../src/domain/contract/answer.ts"
import { CLOCK_TICK_MS, GUIDE_FAILED_MESSAGE, type GuideViewer, guideMachine } from "../../../src/machines/guide/guideMachine.ts"
import {
  type GuideSnapshot,
  selectChannels,
  selectDay,
  selectDays,
  selectError,
  selectStatus
} from "../../../src/machines/guide/guideSelectors.ts"
import { answers } from "../../support/machineFixtures.ts"
import { CHANNEL_ONE, DAYS, ELSEWHERE, failure, fakeClock, guideDays, NOW, ok, settle, startGuide, ZONE } from "./guideFixtures.ts"

const titles = (snapshot: GuideSnapshot) =>
  selectChannels(snapshot).map((channel) => [
    channel.name,
    channel.programmes.map((programme) => `${programme.live ? "LIVE " : ""}${programme.title}`)
  ])

describe("guideMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(NOW)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("loads today in the viewer's zone, offering it and the next six days", async () => {
    const { actor, requests } = startGuide()
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
    expect(selectDays(actor.getSnapshot())).toEqual(DAYS)
    expect(selectDay(actor.getSnapshot())).toBe(DAYS[0])
    expect(requests).toEqual([{ day: "2026-11-23", timeZone: ZONE }])
  })

  it("lists each channel's programmes not yet ended, the LIVE ones first, then by start time", async () => {
    const { actor } = startGuide()
    await settle()
    expect(titles(actor.getSnapshot())).toEqual([
      [CHANNEL_ONE, ["LIVE Evening News", "Cup Final", "The Late Show"]],
      [ELSEWHERE, ["LIVE Cooking Live", "Quiz Night"]]
    ])
    const news = selectChannels(actor.getSnapshot())[0]?.programmes[0]
    expect(news).toMatchObject({ subtitle: "Headlines and weather", start: "2026-11-23T17:00:00.000Z", end: "2026-11-23T18:00:00.000Z" })
    expect(news?.progress).toBeCloseTo(0.75)
  })

  it("is empty (No data for that day) when the day has no channels, or nothing left on any", async () => {
    const { actor } = startGuide({ schedule: ({ day }) => ok(day === DAYS[0] ? [] : (guideDays[day] ?? [])) })
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("empty")
    expect(selectChannels(actor.getSnapshot())).toEqual([])
  })

  it("fails with a retry, in plain words, and loads the day when retried", async () => {
    const { actor, requests } = startGuide({
      schedule: (request, count) => (count === 1 ? failure(500, "Database unavailable") : ok(guideDays[request.day] ?? []))
    })
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("failed")
    expect(selectError(actor.getSnapshot())).toBe(`${GUIDE_FAILED_MESSAGE} Please try again in a moment.`)
    actor.send({ type: "day.retry" })
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
    expect(selectError(actor.getSnapshot())).toBeNull()
    expect(requests).toHaveLength(2)
  })

  it("fails with a retry when the viewer's zone cannot be read, and opens when retried", async () => {
    let reads = 0
    const actor = createActor(
      guideMachine.provide({
        actors: {
          readViewer: fromPromise(async (): Promise<GuideViewer> => {
            reads += 1
            if (reads === 1) throw new Error("no Intl")
            return { timeZone: ZONE, now: Date.now(), player: 2 }
          }),
          loadSchedule: fromPromise(async ({ input }) => ok(guideDays[input.day] ?? [])),
          loadStreams: answers("streams", answered({ success: true, data: [] })),
          clock: fakeClock
        }
      })
    ).start()
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("failed")
    actor.send({ type: "day.retry" })
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
  })

  it("says to check the connection when nothing answered", async () => {
    const { actor } = startGuide({ schedule: () => unreachable("network", "Could not reach the server.") })
    await settle()
    expect(selectError(actor.getSnapshot())).toBe(`${GUIDE_FAILED_MESSAGE} Check your connection and try again.`)
  })

  it("loads another day when it is chosen, and shows a day already loaded at once", async () => {
    const { actor, requests } = startGuide()
    await settle()
    actor.send({ type: "day.choose", day: DAYS[1] ?? "" })
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    await settle()
    expect(selectDay(actor.getSnapshot())).toBe(DAYS[1])
    expect(titles(actor.getSnapshot())).toEqual([[CHANNEL_ONE, ["The Late Show", "Cup Final Replay"]]])

    actor.send({ type: "day.choose", day: DAYS[0] ?? "" })
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
    expect(requests.map((request) => request.day)).toEqual([DAYS[0], DAYS[1]])
  })

  it("keeps only the last of several days chosen quickly, and ignores a day outside the seven", async () => {
    const slow = (day: string) => new Promise<ReturnType<typeof ok>>((resolve) => setTimeout(() => resolve(ok(guideDays[day] ?? [])), 1000))
    const { actor } = startGuide({ schedule: ({ day }) => slow(day) })
    await settle()
    actor.send({ type: "day.choose", day: DAYS[1] ?? "" })
    actor.send({ type: "day.choose", day: DAYS[2] ?? "" })
    actor.send({ type: "day.choose", day: "2026-12-25" })
    await vi.advanceTimersByTimeAsync(1000)
    expect(selectDay(actor.getSnapshot())).toBe(DAYS[2])
    expect(titles(actor.getSnapshot())).toEqual([[ELSEWHERE, ["Saturday Sport"]]])
  })

  it("moves LIVE along as time passes, without loading again", async () => {
    const { actor, requests } = startGuide()
    await settle()
    // 18:00 UTC: the news has ended, the final and the cooking are on
    await vi.advanceTimersByTimeAsync(15 * 60_000)
    expect(titles(actor.getSnapshot())).toEqual([
      [CHANNEL_ONE, ["LIVE Cup Final", "The Late Show"]],
      [ELSEWHERE, ["LIVE Cooking Live", "Quiz Night"]]
    ])
    expect(requests).toHaveLength(1)
  })

  it("re-evaluates only on the clock's ticks", async () => {
    const { actor } = startGuide()
    await settle()
    // the news ends at 18:00 UTC, 15 minutes on: the tick just before still shows it
    await vi.advanceTimersByTimeAsync(15 * 60_000 - CLOCK_TICK_MS / 2)
    expect(titles(actor.getSnapshot())[0]?.[1]?.[0]).toBe("LIVE Evening News")
    await vi.advanceTimersByTimeAsync(CLOCK_TICK_MS / 2)
    expect(titles(actor.getSnapshot())[0]?.[1]?.[0]).toBe("LIVE Cup Final")
  })

  it("becomes empty once everything on the day has ended", async () => {
    const news = guideDays[DAYS[0] ?? ""]?.[0]?.EpgList.find((entry) => entry.Title === "Evening News")
    const { actor } = startGuide({ schedule: () => ok([{ Channel: { Name: CHANNEL_ONE }, EpgList: news === undefined ? [] : [news] }]) })
    await settle()
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
    await vi.advanceTimersByTimeAsync(15 * 60_000)
    expect(selectStatus(actor.getSnapshot())).toBe("empty")
  })

  it("moves to the new seven days at midnight and shows the new today", async () => {
    const { actor, requests } = startGuide()
    await settle()
    // 23:00 UTC is midnight in Oslo
    await vi.advanceTimersByTimeAsync(Date.parse("2026-11-23T23:00:00Z") - NOW)
    await settle()
    expect(selectDays(actor.getSnapshot())).toEqual([...DAYS.slice(1), "2026-11-30"])
    expect(selectDay(actor.getSnapshot())).toBe(DAYS[1])
    expect(requests.map((request) => request.day)).toEqual([DAYS[0], DAYS[1]])
    expect(titles(actor.getSnapshot())).toEqual([[CHANNEL_ONE, ["LIVE The Late Show", "Cup Final Replay"]]])
  })
})
