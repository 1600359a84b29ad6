import { api } from "../../domain/api.ts"
import { TOKEN_STORAGE_KEY } from "../../domain/StorageKeys.ts"
import { HEALTH_DEBOUNCE_MS, HEALTH_FLUSH_EVENTS, HEALTH_FLUSH_MS, HEALTH_TIME_UPDATE_MS } from "../../domain/TelemetryLimits.ts"
import type { HealthEvent } from "../../domain/Telemetry.ts"
import type { SyncedClock } from "./syncedClock.ts"
import { systemTimers, type Timers } from "./timers.ts"
import type { HealthContext, HealthTransport } from "../../domain/TelemetryProtocol.ts"

export interface HealthBeaconDeps {
  readonly clock: SyncedClock
  /** `navigator.sendBeacon`, bound; absent where the browser has none. */
  readonly sendBeacon?: (url: string, data: Blob) => boolean
  /** The fallback when a beacon is refused; sent with `keepalive` so it outlives the page. */
  readonly fetch: typeof globalThis.fetch
  /** Only the fallback can carry the session: beacons cannot set headers. */
  readonly getToken?: () => string | null
  readonly timers?: Timers
}

/** The browser's `navigator.sendBeacon`, bound to its navigator, if there is one. */
export const browserSendBeacon = (): HealthBeaconDeps["sendBeacon"] => {
  const navigator = globalThis.navigator
  return typeof navigator?.sendBeacon === "function" ? navigator.sendBeacon.bind(navigator) : undefined
}

export const HEALTH_EVENTS_URL = api.healthEvents.path
/** Only the last of a burst of these matters: dragging a volume slider or resizing a window. */
export const DEBOUNCED_HEALTH_EVENTS: ReadonlySet<string> = new Set(["volumechange", "resize"])
export const TIME_UPDATE_EVENT = "timeupdate"
// The server takes at most this many events per request.
const MAX_BATCH = 100

/**
 * Collects player health events and sends them in batches (SPEC §9): every 2 s, or at once when
 * 10 are waiting, by `navigator.sendBeacon` so a closing page still delivers them.
 */
export class HealthBeacon {
  readonly #deps: HealthBeaconDeps
  readonly #context: HealthContext
  readonly #timers: Timers
  #queue: Array<HealthEvent> = []
  #flushTimer: unknown
  readonly #debounced = new Map<string, { readonly handle: unknown; readonly record: HealthEvent }>()
  #lastTimeUpdate = Number.NEGATIVE_INFINITY
  #onFlushed: ((count: number, transport: HealthTransport) => void) | undefined

  constructor(deps: HealthBeaconDeps, context: HealthContext, onFlushed?: (count: number, transport: HealthTransport) => void) {
    this.#deps = deps
    this.#context = context
    this.#timers = deps.timers ?? systemTimers
    this.#onFlushed = onFlushed
  }

  get queued(): number {
    return this.#queue.length
  }

  /** `currentTime` is the media position in seconds when the event happened. */
  record(event: string, currentTime: number, firstFrameMs?: number): void {
    const stamped = this.#stamp(event, currentTime)
    const record = firstFrameMs === undefined ? stamped : { ...stamped, first_frame_ms: Math.round(firstFrameMs) }
    if (DEBOUNCED_HEALTH_EVENTS.has(event)) {
      this.#timers.clearTimeout(this.#debounced.get(event)?.handle)
      const handle = this.#timers.setTimeout(() => {
        this.#debounced.delete(event)
        this.#enqueue(record)
      }, HEALTH_DEBOUNCE_MS)
      this.#debounced.set(event, { handle, record })
      return
    }
    if (event === TIME_UPDATE_EVENT) {
      const now = this.#deps.clock.now()
      if (now - this.#lastTimeUpdate < HEALTH_TIME_UPDATE_MS) return
      this.#lastTimeUpdate = now
    }
    this.#enqueue(record)
  }

  flush(): void {
    this.#timers.clearTimeout(this.#flushTimer)
    this.#flushTimer = undefined
    while (this.#queue.length > 0) this.#deliver(this.#queue.splice(0, MAX_BATCH))
  }

  /** Sends what is waiting, debounced events as they stand; reports nothing more. */
  dispose(): void {
    this.#onFlushed = undefined
    for (const { handle, record } of this.#debounced.values()) {
      this.#timers.clearTimeout(handle)
      this.#queue.push(record)
    }
    this.#debounced.clear()
    this.flush()
  }

  #stamp(event: string, currentTime: number): HealthEvent {
    const { clock } = this.#deps
    return { ...this.#context, event, current_time: currentTime, client_time: clock.now(), adjusted_time: clock.adjustedNow() }
  }

  #enqueue(record: HealthEvent): void {
    this.#queue.push(record)
    if (this.#queue.length >= HEALTH_FLUSH_EVENTS) this.flush()
    else this.#flushTimer ??= this.#timers.setTimeout(() => this.flush(), HEALTH_FLUSH_MS)
  }

  #deliver(events: Array<HealthEvent>): void {
    const payload = JSON.stringify({ events })
    // text/plain is the one type a beacon may carry without a CORS preflight; the server reads it as JSON.
    const sent = this.#deps.sendBeacon?.(HEALTH_EVENTS_URL, new Blob([payload], { type: "text/plain;charset=UTF-8" })) === true
    if (!sent) {
      const token = this.#deps.getToken?.() ?? null
      const headers: Record<string, string> = { "Content-Type": "application/json" }
      if (token !== null) headers[TOKEN_STORAGE_KEY] = token
      // Called unbound: window.fetch throws "Illegal invocation" when `this` is another object.
      const { fetch } = this.#deps
      void fetch(HEALTH_EVENTS_URL, { method: "POST", headers, body: payload, keepalive: true, credentials: "include" })
        .catch(() => undefined)
    }
    this.#onFlushed?.(events.length, sent ? "beacon" : "fetch")
  }
}
