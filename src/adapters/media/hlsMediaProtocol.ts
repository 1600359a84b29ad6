/**
 * The media adapter's side of the player's media protocol. Adapters import only the domain, so
 * this mirrors `machines/mediaProtocol.ts`; `src/app` hands one to the other, which keeps the two
 * in step through the type checker.
 */
export interface MediaTiming {
  readonly currentTime: number
  readonly start: number
  readonly end: number
  readonly live: boolean
  readonly latency: number | null
}

export type RecoveryKind = "network" | "media"

export type MediaCommand =
  | { readonly type: "media.load"; readonly source: string }
  | { readonly type: "media.stop" }
  | { readonly type: "media.play" }
  | { readonly type: "media.pause" }
  | { readonly type: "media.seekTo"; readonly time: number }
  | { readonly type: "media.seekToLive" }
  | { readonly type: "media.volume"; readonly volume: number; readonly muted: boolean }
  | { readonly type: "media.probe" }
  | { readonly type: "media.recover"; readonly kind: RecoveryKind }

export type MediaFact =
  | { readonly type: "media.playing" }
  | { readonly type: "media.paused" }
  | { readonly type: "media.waiting" }
  | { readonly type: "media.ended" }
  | ({ readonly type: "media.timing" } & MediaTiming)
  | { readonly type: "media.autoMuted" }
  | { readonly type: "media.volumeChanged" }
  | { readonly type: "media.reconnected" }
  | { readonly type: "media.firstFrame"; readonly ms: number }
  | { readonly type: "media.fault"; readonly kind: RecoveryKind; readonly code: number; readonly message: string }
  | { readonly type: "media.failed"; readonly code: number; readonly message: string }

export interface MediaInput {
  readonly element: HTMLVideoElement
  readonly lowLatency: boolean
}
