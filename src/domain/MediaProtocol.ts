// The media actor's protocol: what the player machine tells the media adapter (hls.js or the
// browser's own HLS) and what the adapter reports back. Both sides import these types from here.

/** Where the playhead is and what can be reached from it; seconds on the media timeline. */
export interface MediaTiming {
  readonly currentTime: number
  /** earliest reachable position (start of the live window, 0 for VOD) */
  readonly start: number
  /** the live edge as last reported, or the duration of a VOD */
  readonly end: number
  readonly live: boolean
  /** seconds behind the live edge as the player estimates it; null for VOD or when unknown */
  readonly latency: number | null
  /**
   * Epoch ms of media time 0, from the playlist's program date time: the wall clock of the moment
   * at `seconds` is `epoch + seconds * 1000`. Absent when the playlist carries no date.
   */
  readonly epoch?: number
}

export type RecoveryKind = "network" | "media"

/** What the media adapter is told to do. */
export type MediaCommand =
  /** `startAt` (epoch ms): start at that moment of the playlist's window rather than live (live when it is still to come) */
  | { readonly type: "media.load"; readonly source: string; readonly startAt?: number }
  | { readonly type: "media.stop" }
  | { readonly type: "media.play" }
  | { readonly type: "media.pause" }
  | { readonly type: "media.seekTo"; readonly time: number }
  | { readonly type: "media.seekToLive" }
  | { readonly type: "media.volume"; readonly volume: number; readonly muted: boolean }
  /** how fast the picture runs (1 normal); a live stream played behind its edge catches up above 1 */
  | { readonly type: "media.rate"; readonly rate: number }
  /** Replies with one `media.timing`. */
  | { readonly type: "media.probe" }
  | { readonly type: "media.recover"; readonly kind: RecoveryKind }

/** What the media adapter reports back. */
export type MediaFact =
  | { readonly type: "media.playing" }
  | { readonly type: "media.paused" }
  | { readonly type: "media.waiting" }
  | { readonly type: "media.ended" }
  | ({ readonly type: "media.timing" } & MediaTiming)
  /** The browser refused sound, so playback started muted instead. */
  | { readonly type: "media.autoMuted" }
  /** The element's volume or mute changed, whoever changed it. */
  | { readonly type: "media.volumeChanged" }
  /** The browser is online again after being offline (going offline is a `media.failed`, code 1002). */
  | { readonly type: "media.reconnected" }
  /** The moment a load asked to start at is gone from the playlist's window (or it has no dates): it plays live instead. */
  | { readonly type: "media.startMissed" }
  /** ms from navigation start to the first frame on screen */
  | { readonly type: "media.firstFrame"; readonly ms: number }
  /** a source's first picture, `ms` after it was asked for (from navigation start for the page's warm start) */
  | { readonly type: "media.started"; readonly ms: number }
  /** A fatal library error the machine may still recover from; `code` is what to show if it can't. */
  | { readonly type: "media.fault"; readonly kind: RecoveryKind; readonly code: number; readonly message: string }
  /** Our origin refused the source's playlist (HTTP 403, 410 or 429): the grant it carries needs a word with the server. */
  | { readonly type: "media.refused"; readonly status: number }
  /** Our origin has no playlist for the channel right now (HTTP 503): its feed is starting, or lost its signal. */
  | { readonly type: "media.unavailable" }
  /** Nothing to recover: shown as is. */
  | { readonly type: "media.failed"; readonly code: number; readonly message: string }

export interface MediaInput {
  readonly element: HTMLVideoElement
  readonly lowLatency: boolean
}
