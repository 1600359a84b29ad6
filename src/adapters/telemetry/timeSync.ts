import { type EventObject, fromCallback } from "xstate"
import { detailOf } from "../../domain/contract/answer.ts"
import type { TimeSyncFact } from "../../domain/TelemetryProtocol.ts"
import type { CallApi } from "../http/http.ts"
import type { SyncedClock } from "./syncedClock.ts"

export interface TimeSyncDeps {
  readonly callApi: CallApi
  readonly clock: SyncedClock
}

const UNREACHABLE = "The server time could not be read."

/**
 * Reads the server clock and stores the offset on `clock`. The answer is assumed to be taken
 * half-way through the round trip, which bounds the error by half of it.
 */
export async function syncTime(deps: TimeSyncDeps, signal?: AbortSignal): Promise<TimeSyncFact> {
  const t0 = deps.clock.now()
  const answer = await deps.callApi("timeSync", signal === undefined ? {} : { signal })
  const t1 = deps.clock.now()
  if (answer._tag !== "ok") return { type: "time.syncFailed", detail: detailOf(answer) ?? UNREACHABLE }
  const offsetMs = answer.body.millisUtc - (t0 + t1) / 2
  deps.clock.setOffset(offsetMs)
  return { type: "time.synced", offsetMs }
}

/** Syncs once when started; stopping it cancels a sync still in flight. */
export const createTimeSyncActor = (deps: TimeSyncDeps) =>
  fromCallback<EventObject>(({ sendBack }) => {
    const controller = new AbortController()
    void syncTime(deps, controller.signal).then((fact) => {
      if (!controller.signal.aborted) sendBack(fact)
    })
    return () => controller.abort()
  })
