import type { BodyOf } from "../../domain/contract/api.ts"
import { LIVE_PING_INTERVAL_S, PING_THROTTLE_MS, PLAYER_VERSION } from "../../domain/TelemetryLimits.ts"
import type { AnalyticsEventName, AnalyticsMedia } from "../../domain/TelemetryProtocol.ts"
import type { AnalyticsQueue } from "./AnalyticsQueue.ts"
import type { SyncedClock } from "./syncedClock.ts"
import { systemTimers, type Timers } from "./timers.ts"
import { VodProgress } from "./VodProgress.ts"

export interface AnalyticsTrackerDeps {
  readonly queue: Pick<AnalyticsQueue, "enqueue">
  readonly clock: SyncedClock
  readonly sessionId: string
  readonly timers?: Timers
}

const LIVE_PING_MS = LIVE_PING_INTERVAL_S * 1000

/**
 * Turns what the player does into analytics events: `display` once per media, `view` once when
 * its playback first starts, and `ping`s while it plays — for live one per 60 s of playing
 * (position: seconds watched so far), for VOD the newly reached 100-slices, at most every 6 s.
 */
export class AnalyticsTracker {
  readonly #deps: AnalyticsTrackerDeps
  readonly #timers: Timers
  readonly #displayed = new Set<string>()
  readonly #viewed = new Set<string>()
  #media: AnalyticsMedia | undefined
  #muted = false
  #playing = false
  #vod = new VodProgress()
  #lastPingAt = Number.NEGATIVE_INFINITY
  #pingTimer: unknown
  #liveSeconds = 0
  #liveTimer: unknown
  #tickStartedAt = 0
  #tickRemainingMs = LIVE_PING_MS

  constructor(deps: AnalyticsTrackerDeps) {
    this.#deps = deps
    this.#timers = deps.timers ?? systemTimers
  }

  /**
   * The same media loaded again with another `live` is the player learning what it plays (a VOD
   * is only known once its playlist is in): progress starts over the other way.
   */
  load(media: AnalyticsMedia, muted = this.#muted): void {
    this.#muted = muted
    if (this.#media?.media_id !== media.media_id) {
      this.#pingVod()
      this.#reset()
      this.#media = media
    } else if (this.#media.live !== media.live) {
      this.#reset()
      this.#media = media
      if (this.#playing && media.live) this.#scheduleTick(this.#tickRemainingMs)
    }
    if (this.#displayed.has(media.media_id)) return
    this.#displayed.add(media.media_id)
    this.#send("display", 0)
  }

  play(): void {
    this.#playing = true
    const media = this.#media
    if (media === undefined) return
    if (!this.#viewed.has(media.media_id)) {
      this.#viewed.add(media.media_id)
      this.#send("view", 0)
    }
    if (media.live && this.#liveTimer === undefined) this.#scheduleTick(this.#tickRemainingMs)
  }

  /** Live minutes only count while playing: the part of a minute already played is kept. */
  pause(): void {
    this.#playing = false
    if (this.#liveTimer === undefined) return
    this.#timers.clearTimeout(this.#liveTimer)
    this.#liveTimer = undefined
    const elapsed = this.#deps.clock.now() - this.#tickStartedAt
    this.#tickRemainingMs = Math.min(LIVE_PING_MS, Math.max(0, this.#tickRemainingMs - elapsed))
  }

  progress(position: number, duration: number): void {
    if (this.#media === undefined || this.#media.live) return
    this.#vod.observe(position, duration)
    if (!this.#vod.hasFresh || this.#pingTimer !== undefined) return
    const wait = this.#lastPingAt + PING_THROTTLE_MS - this.#deps.clock.now()
    if (wait <= 0) {
      this.#pingVod()
      return
    }
    this.#pingTimer = this.#timers.setTimeout(() => {
      this.#pingTimer = undefined
      this.#pingVod()
    }, wait)
  }

  setMuted(muted: boolean): void {
    this.#muted = muted
  }

  dispose(): void {
    this.#reset()
    this.#media = undefined
  }

  #pingVod(): void {
    if (this.#media === undefined || !this.#vod.hasFresh) return
    this.#lastPingAt = this.#deps.clock.now()
    this.#send("ping", this.#vod.takeFresh())
  }

  #scheduleTick(ms: number): void {
    this.#tickStartedAt = this.#deps.clock.now()
    this.#tickRemainingMs = ms
    this.#liveTimer = this.#timers.setTimeout(() => {
      this.#liveSeconds += LIVE_PING_INTERVAL_S
      this.#send("ping", this.#liveSeconds)
      this.#scheduleTick(LIVE_PING_MS)
    }, ms)
  }

  #reset(): void {
    this.#timers.clearTimeout(this.#pingTimer)
    this.#timers.clearTimeout(this.#liveTimer)
    this.#pingTimer = undefined
    this.#liveTimer = undefined
    this.#vod = new VodProgress()
    this.#lastPingAt = Number.NEGATIVE_INFINITY
    this.#liveSeconds = 0
    this.#tickRemainingMs = LIVE_PING_MS
  }

  #send(event: AnalyticsEventName, position: number | Array<number>): void {
    const media = this.#media
    if (media === undefined) return
    const videoType = media.live ? "live" : "vod"
    const body: BodyOf<"analytics"> = {
      session_id: this.#deps.sessionId,
      sitegroup_id: media.sitegroup_id,
      media_id: media.media_id,
      site_id: media.site_id,
      player_id: media.player_id,
      video_type: videoType,
      created: Math.round(this.#deps.clock.adjustedNow()),
      position,
      player_version: PLAYER_VERSION,
      source: media.source,
      category: media.category,
      category_id: media.category_id,
      autoplay: media.autoplay,
      muted: this.#muted,
      customer_user_id: media.customer_user_id
    }
    this.#deps.queue.enqueue({ params: { videoType, siteGroupId: media.sitegroup_id, event }, body })
  }
}
