import { detailOf, isSuccess } from "../../domain/contract/answer.ts"
import type { BodyOf, ParamsOf } from "../../domain/contract/api.ts"
import {
  ANALYTICS_FAILURES_BEFORE_PAUSE,
  ANALYTICS_MAX_OPEN_REQUESTS,
  ANALYTICS_MAX_PENDING,
  ANALYTICS_PAUSE_MS,
  ANALYTICS_REQUEST_TIMEOUT_MS
} from "../../domain/TelemetryLimits.ts"
import type { AnalyticsFact } from "../../domain/TelemetryProtocol.ts"
import type { CallApi } from "../http/http.ts"
import { systemTimers, type Timers } from "./timers.ts"

/** One analytics call: `POST /api/analytics/{videoType}/{siteGroupId}/{event}` with its body. */
export interface AnalyticsItem {
  readonly params: ParamsOf<"analytics">
  readonly body: BodyOf<"analytics">
}

export interface AnalyticsQueueDeps {
  readonly callApi: CallApi
  readonly timers?: Timers
  readonly report?: (fact: AnalyticsFact) => void
}

const TIMED_OUT = "The analytics request timed out."
const FORBIDDEN = "The session has ended."

/**
 * Sends analytics without ever getting in the way of playback (SPEC §9): a few items wait, a
 * few requests run, slow requests are cut off, and a failing server is left alone for a while.
 * Analytics are best-effort: an item that fails or does not fit is dropped, not retried.
 */
export class AnalyticsQueue {
  readonly #deps: AnalyticsQueueDeps
  readonly #timers: Timers
  readonly #pending: Array<AnalyticsItem> = []
  readonly #inFlight = new Set<AbortController>()
  #failures = 0
  #suspended = false
  #resumeTimer: unknown
  #disposed = false

  constructor(deps: AnalyticsQueueDeps) {
    this.#deps = deps
    this.#timers = deps.timers ?? systemTimers
  }

  get pending(): number {
    return this.#pending.length
  }

  get open(): number {
    return this.#inFlight.size
  }

  get suspended(): boolean {
    return this.#suspended
  }

  /** Answers false when the item was dropped because the queue is full. */
  enqueue(item: AnalyticsItem): boolean {
    if (this.#disposed) return false
    if (this.#pending.length >= ANALYTICS_MAX_PENDING) {
      this.#deps.report?.({ type: "analytics.dropped", event: item.params.event })
      return false
    }
    this.#pending.push(item)
    this.#pump()
    return true
  }

  /** Cancels open requests and forgets what is waiting. */
  dispose(): void {
    this.#disposed = true
    this.#pending.length = 0
    this.#timers.clearTimeout(this.#resumeTimer)
    for (const controller of this.#inFlight) controller.abort()
    this.#inFlight.clear()
  }

  #pump(): void {
    while (!this.#disposed && !this.#suspended && this.#inFlight.size < ANALYTICS_MAX_OPEN_REQUESTS) {
      const item = this.#pending.shift()
      if (item === undefined) return
      void this.#send(item)
    }
  }

  async #send(item: AnalyticsItem): Promise<void> {
    const controller = new AbortController()
    this.#inFlight.add(controller)
    const timeout = this.#timers.setTimeout(() => controller.abort(), ANALYTICS_REQUEST_TIMEOUT_MS)
    const answer = await this.#deps.callApi("analytics", { params: item.params, body: item.body, signal: controller.signal })
    this.#timers.clearTimeout(timeout)
    if (this.#disposed) return
    this.#inFlight.delete(controller)
    if (isSuccess(answer)) {
      this.#failures = 0
      this.#deps.report?.({ type: "analytics.sent", event: item.params.event })
    } else {
      const detail = controller.signal.aborted ? TIMED_OUT : (detailOf(answer) ?? FORBIDDEN)
      this.#deps.report?.({ type: "analytics.failed", event: item.params.event, detail })
      this.#failures += 1
      if (this.#failures > ANALYTICS_FAILURES_BEFORE_PAUSE) this.#suspend()
    }
    this.#pump()
  }

  #suspend(): void {
    this.#failures = 0
    this.#suspended = true
    this.#deps.report?.({ type: "analytics.suspended", forMs: ANALYTICS_PAUSE_MS })
    this.#resumeTimer = this.#timers.setTimeout(() => {
      this.#suspended = false
      this.#pump()
    }, ANALYTICS_PAUSE_MS)
  }
}
