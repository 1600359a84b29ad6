import { vi } from "vitest"
import { createActor, fromCallback, fromPromise } from "xstate"
import type { ClockCommand, ClockInput } from "../../../src/domain/ClockProtocol.ts"
import { type Answer, answered, refused } from "../../../src/domain/contract/answer.ts"
import type { EpgEntry, ScheduleItem } from "../../../src/domain/Schedule.ts"
import type { PlayerChoice } from "../../../src/domain/Stream.ts"
import { guideMachine, type ScheduleRequest } from "../../../src/machines/guide/guideMachine.ts"
import { streams } from "../../support/machineFixtures.ts"

/** 18:45 in Oslo (UTC+1 in November): one programme on each channel is on, one has ended. */
export const NOW = Date.parse("2026-11-23T17:45:00Z")
export const ZONE = "Europe/Oslo"
export const DAYS = ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]

const at = (iso: string, Title: string, Subtitle: string, minutes: number): EpgEntry => ({
  StartTime: new Date(iso).toISOString(),
  EndTime: new Date(Date.parse(iso) + minutes * 60_000).toISOString(),
  Title,
  Subtitle
})

// Oslo's midnight is 23:00 UTC: this one runs from the 23rd into the 24th, so both days answer it
const lateShow = at("2026-11-23T22:30:00Z", "The Late Show", "Music and talk", 120)

/** Channel 1 plays on stream 3 (index 2 of the fixture streams); Elsewhere TV is not ours. */
export const CHANNEL_ONE = "Demo Channel 1"
export const ELSEWHERE = "Elsewhere TV"

export const guideDays: Readonly<Record<string, ReadonlyArray<ScheduleItem>>> = {
  "2026-11-23": [
    {
      Channel: { Name: CHANNEL_ONE, StreamId: 3 },
      EpgList: [
        at("2026-11-23T18:00:00Z", "Cup Final", "Oslo v Bergen", 90),
        at("2026-11-23T16:00:00Z", "Morning Match", "Replay", 60),
        at("2026-11-23T17:00:00Z", "Evening News", "Headlines and weather", 60),
        lateShow
      ]
    },
    {
      Channel: { Name: ELSEWHERE },
      EpgList: [at("2026-11-23T17:30:00Z", "Cooking Live", "Pasta night", 60), at("2026-11-23T19:00:00Z", "Quiz Night", "", 60)]
    }
  ],
  "2026-11-24": [
    { Channel: { Name: CHANNEL_ONE, StreamId: 3 }, EpgList: [lateShow, at("2026-11-24T10:00:00Z", "Cup Final Replay", "Highlights", 60)] },
    { Channel: { Name: ELSEWHERE }, EpgList: [] }
  ],
  "2026-11-25": [{ Channel: { Name: ELSEWHERE }, EpgList: [at("2026-11-25T20:00:00Z", "Saturday Sport", "The final score", 45)] }]
}

export const ok = (Items: ReadonlyArray<ScheduleItem>): Answer<"schedule"> => answered({ success: true, data: { Items } })
export const failure = (status: number, detail: string): Answer<"schedule"> => refused(status, detail)

/** The clock as src/app runs it, on whatever timers the test fakes. */
export const fakeClock = fromCallback<ClockCommand, ClockInput>(({ sendBack, input }) => {
  const timer = setInterval(() => sendBack({ type: "clock.ticked", now: Date.now() }), input.everyMs)
  return () => clearInterval(timer)
})

interface StartOptions {
  /** Answers by day; a function answers each request, e.g. to fail the first. */
  readonly schedule?: (request: ScheduleRequest, count: number) => Answer<"schedule"> | Promise<Answer<"schedule">>
  /** The streams' answer; a function answers each request, e.g. to fail the first. */
  readonly streamsAnswer?: Answer<"streams"> | (() => Answer<"streams">)
  readonly player?: PlayerChoice
}

export const startGuide = ({ schedule, streamsAnswer = answered({ success: true, data: streams }), player = 2 }: StartOptions = {}) => {
  const requests: Array<ScheduleRequest> = []
  const loadSchedule = vi.fn(async (request: ScheduleRequest) => {
    requests.push(request)
    return schedule === undefined ? ok(guideDays[request.day] ?? []) : schedule(request, requests.length)
  })
  const actor = createActor(
    guideMachine.provide({
      actors: {
        readViewer: fromPromise(async () => ({ timeZone: ZONE, now: Date.now(), player })),
        loadSchedule: fromPromise(({ input }) => loadSchedule(input)),
        loadStreams: fromPromise(
          async (): Promise<Answer<"streams">> => (typeof streamsAnswer === "function" ? streamsAnswer() : streamsAnswer)
        ),
        clock: fakeClock
      }
    })
  ).start()
  return { actor, requests }
}

/** Lets answered promises settle without moving the clock. */
export const settle = () => vi.advanceTimersByTimeAsync(0)
