import { fromCallback } from "xstate"
import type { AnalyticsCommand, AnalyticsFact, AnalyticsInput } from "../../domain/TelemetryProtocol.ts"
import type { CallApi } from "../http/http.ts"
import { AnalyticsQueue } from "./AnalyticsQueue.ts"
import { AnalyticsTracker } from "./AnalyticsTracker.ts"
import type { SyncedClock } from "./syncedClock.ts"
import { systemTimers, type Timers } from "./timers.ts"

export interface AnalyticsDeps {
  readonly callApi: CallApi
  readonly clock: SyncedClock
  readonly timers?: Timers
}

/** The tracker and its queue as an actor: commands in, `analytics.*` queue facts out. */
export const createAnalyticsActor = (deps: AnalyticsDeps) =>
  fromCallback<AnalyticsCommand, AnalyticsInput>(({ input, sendBack, receive }) => {
    const timers = deps.timers ?? systemTimers
    const queue = new AnalyticsQueue({ callApi: deps.callApi, timers, report: (fact: AnalyticsFact) => sendBack(fact) })
    const tracker = new AnalyticsTracker({ queue, clock: deps.clock, sessionId: input.sessionId, timers })
    receive((command) => {
      if (command.type === "analytics.load") tracker.load(command.media, command.muted)
      else if (command.type === "analytics.play") tracker.play()
      else if (command.type === "analytics.pause") tracker.pause()
      else if (command.type === "analytics.progress") tracker.progress(command.position, command.duration)
      else tracker.setMuted(command.muted)
    })
    return () => {
      tracker.dispose()
      queue.dispose()
    }
  })
