import { api } from "../../domain/contract/api.ts"
import { TOKEN_STORAGE_KEY } from "../../domain/StorageKeys.ts"
import type { HealthEvent } from "../../domain/Telemetry.ts"
import {
  HEALTH_DEBOUNCE_MS,
  HEALTH_EVENTS_PER_REQUEST,
  HEALTH_FLUSH_EVENTS,
  HEALTH_FLUSH_MS,
  HEALTH_ID_MAX_LENGTH,
  HEALTH_TIME_UPDATE_MS,
  HEALTH_URL_MAX_LENGTH
} from "../../domain/TelemetryLimits.ts"
import type { HealthContext, HealthTransport } from "../../domain/TelemetryProtocol.ts"
import type { SyncedClock } from "./syncedClock.ts"
import { systemTimers, type Timers } from "./timers.ts"

export interface HealthBeaconDeps {
  readonly clock: SyncedClock
  /** `navigator.sendBeacon`, bound; absent where the browser has none. */
  readonly sendBeacon?: (url: string, data: Blob) => boolean
  /** The fallback when a beacon is refused; sent with `keepalive` so it outlives the page. */
  readonly fetch: typeof globalThis.fetch
  /**
   * The session the events are reported under; the server refuses them without it. Beacons cannot
   * set headers, so it travels in the body, and the fetch fallback sends the Token header too.
   */
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
const clip = (text: string, max: number): string => (text.length > max ? text.slice(0, max) : text)

/** The context within the server's limits, so an unusually long page or source URL never loses the events. */
const clipped = (context: HealthContext): HealthContext => {
  const id = (text: string) => clip(text, HEALTH_ID_MAX_LENGTH)
  return {
    ...context,
    session_id: id(context.session_id),
    device_id: id(context.device_id),
    version: id(context.version),
    source: clip(context.source, HEALTH_URL_MAX_LENGTH),
    page_url: clip(context.page_url, HEALTH_URL_MAX_LENGTH),
    ids: {
      media_id: id(context.ids.media_id),
      site_id: id(context.ids.site_id),
      sitegroup_id: id(context.ids.sitegroup_id),
      player_id: id(context.ids.player_id)
    },
    plugins: context.plugins.map(id)
  }
}

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
    this.#context = clipped(context)
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
    while (this.#queue.length > 0) this.#deliver(this.#queue.splice(0, HEALTH_EVENTS_PER_REQUEST))
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
    const token = this.#deps.getToken?.() ?? null
    const payload = JSON.stringify(token === null ? { events } : { token, events })
    // text/plain is the one type a beacon may carry without a CORS preflight; the server reads it as JSON.
    const sent = this.#deps.sendBeacon?.(HEALTH_EVENTS_URL, new Blob([payload], { type: "text/plain;charset=UTF-8" })) === true
    if (!sent) {
      const headers: Record<string, string> = { "Content-Type": "application/json" }
      if (token !== null) headers[TOKEN_STORAGE_KEY] = token
      // Called unbound: window.fetch throws "Illegal invocation" when `this` is another object.
      const { fetch } = this.#deps
      void fetch(HEALTH_EVENTS_URL, { method: "POST", headers, body: payload, keepalive: true, credentials: "include" }).catch(
        () => undefined
      )
    }
    this.#onFlushed?.(events.length, sent ? "beacon" : "fetch")
  }
}
