import type { MediaTiming } from "../../domain/MediaProtocol.ts"
import { DVR_MIN_WINDOW_S } from "../../domain/PlayerLimits.ts"

/** What the timing says about the source itself, as SPEC §3 media metadata describes it. */
export interface MediaKind {
  readonly live: boolean
  readonly seekable: boolean
  /** seconds; 0 for a live stream, which has no end */
  readonly duration: number
}

/** Until the first timing arrives a source counts as what the product streams: live, not seekable. */
export const UNKNOWN_KIND: MediaKind = { live: true, seekable: false, duration: 0 }

/** Seconds behind the live edge: the player's own estimate where it has one. */
export const behindLive = (timing: MediaTiming): number => timing.latency ?? Math.max(0, timing.end - timing.currentTime)

/**
 * A live stream can be sought in once its window is at least 60 s long (SPEC §9); a VOD (a finite
 * playlist, ENDLIST) always can, as long as it has any length at all.
 */
export const isSeekable = (timing: MediaTiming): boolean =>
  timing.live ? timing.end - timing.start >= DVR_MIN_WINDOW_S : timing.end > timing.start

export const mediaKindOf = (timing: MediaTiming): MediaKind => ({
  live: timing.live,
  seekable: isSeekable(timing),
  duration: timing.live ? 0 : Math.max(0, timing.end)
})

export const sameKind = (a: MediaKind, b: MediaKind): boolean => a.live === b.live && a.seekable === b.seekable && a.duration === b.duration
