import { vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { createClockActor } from "../../../src/adapters/time/clock.ts"
import { type Answer, answered, refused as refusal } from "../../../src/domain/contract/answer.ts"
import type { EpgEntry, NowNext } from "../../../src/domain/Schedule.ts"
import { nowNextMachine } from "../../../src/machines/streams/nowNextMachine.ts"

/** 20:10 UTC: the programmes below are part-way through. */
export const T0 = Date.parse("2030-03-01T20:10:00.000Z")
export const MINUTE = 60_000

/** An instant `minutes` after T0, as the guide writes it. */
export const at = (minutes: number): string => new Date(T0 + minutes * MINUTE).toISOString()

export const programme = (from: number, to: number, title: string, subtitle = ""): EpgEntry => ({
  StartTime: at(from),
  EndTime: at(to),
  Title: title,
  Subtitle: subtitle
})

/** Stream 3: the news until 20:30, then the match. Stream 4: cartoons until 20:25, then the weather. */
export const guide: ReadonlyArray<NowNext> = [
  { streamId: 3, now: programme(-10, 20, "Evening News", "Headlines"), next: programme(20, 80, "Match of the Day") },
  { streamId: 4, now: programme(-25, 15, "Cartoons"), next: programme(15, 45, "Weather") }
]

export const ok = (data: ReadonlyArray<NowNext>): Answer<"nowNext"> => answered({ success: true, data })
export const refused: Answer<"nowNext"> = refusal(500, "Database unavailable")

type Result = Answer<"nowNext"> | "hang"

/** A fake `loadNowNext`: answers each call with the next result (the last one repeats) and records when it was asked. */
export const guideLoader = (...results: Array<Result>) => {
  const calls: Array<number> = []
  const logic = fromPromise<Answer<"nowNext">>(({ signal }) => {
    calls.push(Date.now())
    const result = results.length > 1 ? results.shift() : results[0]
    if (result === "hang") return new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))))
    if (result === undefined) return Promise.reject(new Error("no answer given"))
    return Promise.resolve(result)
  })
  /** minutes after T0 of each call */
  const callTimes = () => calls.map((time) => (time - T0) / MINUTE)
  return { logic, calls, callTimes }
}

/** The now/next machine on the device clock (fake timers drive it), its load faked. */
export const startNowNext = async (loader: ReturnType<typeof guideLoader>, streamIds: ReadonlyArray<number> = [3, 4]) => {
  const actor = createActor(nowNextMachine.provide({ actors: { loadNowNext: loader.logic, clock: createClockActor() } }), {
    input: { streamIds }
  }).start()
  await vi.advanceTimersByTimeAsync(0)
  return actor
}

/** The now/next machine as the grid and the player get it in tests, answering `results` in turn. */
export const fakeNowNext = (...results: Array<Result>) => {
  const loader = guideLoader(...results)
  return { loader, logic: nowNextMachine.provide({ actors: { loadNowNext: loader.logic, clock: createClockActor() } }) }
}
