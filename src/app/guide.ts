import { fromPromise } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { createClockActor } from "../adapters/time/clock.ts"
import type { Answer } from "../domain/contract/answer.ts"
import { isTimeZone } from "../domain/Schedule.ts"
import { scheduleDays } from "../domain/ScheduleDays.ts"
import { type GuideViewer, guideMachine } from "../machines/guide/guideMachine.ts"

export interface GuideDeps {
  readonly callApi: CallApi
  readonly storage: AppStorage
  /** where the page was opened */
  readonly location: { readonly pathname: string }
  readonly signedIn: boolean
}

/** The viewer's IANA zone; UTC where the runtime has none to tell (the server's default too). */
const viewerTimeZone = (): string => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
  return typeof zone === "string" && isTimeZone(zone) ? zone : "UTC"
}

/** The programme guide page, wired to the schedule and streams calls, the stored player choice and the clock. */
export const createGuide = ({ callApi, storage, location, signedIn }: GuideDeps) => {
  // Opened on the guide with a session: today's programmes and the streams load alongside the
  // app's own start-up calls instead of after them.
  let earlySchedule: { readonly key: string; readonly answer: Promise<Answer<"schedule">> } | undefined
  let earlyStreams: Promise<Answer<"streams">> | undefined
  if (/^\/stream-schedule\/?$/.test(location.pathname) && signedIn) {
    const timeZone = viewerTimeZone()
    const day = scheduleDays(Date.now(), timeZone)[0] ?? ""
    earlySchedule = { key: `${day} ${timeZone}`, answer: callApi("schedule", { params: { id: day }, query: { tz: timeZone } }) }
    earlyStreams = callApi("streams")
  }
  return {
    guide: guideMachine.provide({
      actors: {
        readViewer: fromPromise<GuideViewer>(async () => ({
          timeZone: viewerTimeZone(),
          now: Date.now(),
          player: storage.getPlayerChoice()
        })),
        // only the page's first load may use an early answer, and only for the day it asked for; a retry asks again
        loadSchedule: fromPromise(({ input, signal }) => {
          const early = earlySchedule?.key === `${input.day} ${input.timeZone}` ? earlySchedule.answer : undefined
          earlySchedule = undefined
          return early ?? callApi("schedule", { params: { id: input.day }, query: { tz: input.timeZone }, signal })
        }),
        loadStreams: fromPromise(({ signal }) => {
          const early = earlyStreams
          earlyStreams = undefined
          return early ?? callApi("streams", { signal })
        }),
        clock: createClockActor()
      }
    })
  }
}
