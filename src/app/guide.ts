import { fromPromise } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { createClockActor } from "../adapters/time/clock.ts"
import { viewerTimeZone } from "../adapters/time/timeZone.ts"
import type { Answer } from "../domain/contract/answer.ts"
import { scheduleDays } from "../domain/ScheduleDays.ts"
import { type GuideViewer, guideMachine } from "../machines/guide/guideMachine.ts"
import { type BootActor, selectSettings } from "../machines/shell/bootMachine.ts"

export interface GuideDeps {
  readonly callApi: CallApi
  readonly storage: AppStorage
  /** where the page was opened */
  readonly location: { readonly pathname: string }
  readonly signedIn: boolean
  /** the site settings it loaded: the time-shift window */
  readonly boot: BootActor
}

/** The programme guide page, wired to the schedule and streams calls, the stored player choice, the site's time-shift window and the clock. */
export const createGuide = ({ callApi, storage, location, signedIn, boot }: GuideDeps) => {
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
          player: storage.getPlayerChoice(),
          timeshiftHours: selectSettings(boot.getSnapshot()).timeshiftHours
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
