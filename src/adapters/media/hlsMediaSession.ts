import type Hls from "hls.js"
import { loadErrorCode, MediaErrorCode, mediaErrorMessage } from "../../domain/MediaError.ts"
import type { MediaFact, MediaTiming, RecoveryKind } from "../../domain/MediaProtocol.ts"
import type { StartPlaylist } from "../../domain/Stream.ts"
import { createHlsEngine, createNativeEngine, type Engine, type EngineContext } from "./hlsMediaEngine.ts"
import type { MediaPrefetch } from "./mediaPrefetch.ts"

export interface HlsSessionDeps {
  /** hls.js is large: it is fetched only when a player actually starts. */
  readonly loadHls: () => Promise<typeof Hls>
  /** starts downloading hls.js without running it */
  readonly preloadHls?: () => void
  readonly hasMse: () => boolean
  readonly pageProtocol: () => string
  readonly isOnline: () => boolean
  /** AirPlay can only send the browser's own HLS playback, so where it is offered the TV player uses that */
  readonly prefersNative?: (lowLatency: boolean) => boolean
  /**
   * starts fetching the source's playlist (and first segment) while hls.js itself loads; `playlist`
   * is the source's playlist when it is already here (it came with the streams list); `startAt`
   * the moment of the window playback starts at, whose segment is the one to fetch
   */
  readonly prefetch?: (source: string, lowLatency: boolean, playlist?: StartPlaylist, startAt?: number) => MediaPrefetch
  /** Where the browser announces going `offline` and coming back `online`; the window by default. */
  readonly connectivity?: Pick<EventTarget, "addEventListener" | "removeEventListener">
}

/** One source on the element, from load to replacement. */
export interface HlsSession {
  readonly play: () => void
  readonly seekTo: (time: number) => void
  readonly seekToLive: () => void
  readonly timing: () => MediaTiming | null
  readonly recover: (kind: RecoveryKind) => void
  readonly end: () => void
}

const HAVE_FUTURE_DATA = 3
const HLS_MIME = "application/vnd.apple.mpegurl"
const failed = (code: number): MediaFact => ({ type: "media.failed", code, message: mediaErrorMessage(code) })
const fault = (kind: RecoveryKind, code: number): MediaFact => ({ type: "media.fault", kind, code, message: mediaErrorMessage(code) })
const clamp = (value: number, min: number, max: number): number => Math.min(Math.max(value, min), Math.max(min, max))
const errorName = (error: unknown): string => (error instanceof Error || error instanceof DOMException ? error.name : "")
const browserWindow = (): HlsSessionDeps["connectivity"] => (typeof window === "undefined" ? undefined : window)

/**
 * Everything a replaced session still emits (late hls.js errors, the `pause` its teardown causes)
 * is dropped, so it cannot be mistaken for news about the source that replaced it.
 */
export const startSession = (
  deps: HlsSessionDeps,
  element: HTMLVideoElement,
  source: string,
  lowLatency: boolean,
  sendBack: (fact: MediaFact) => void,
  startAt?: number
): HlsSession => {
  let active = true
  let engine: Engine | undefined
  let starting = false
  let retried = false
  const report = (fact: MediaFact): void => {
    if (active) sendBack(fact)
  }
  const loadFailureCode = (): number => loadErrorCode(source, deps.pageProtocol(), deps.isOnline())

  const play = (): void => {
    const attempt = element.play() as Promise<void> | undefined
    attempt?.catch((error: unknown) => {
      if (!active || errorName(error) !== "NotAllowedError") return
      if (element.muted) return report({ type: "media.paused" })
      // the browser refuses sound without a gesture; muted playback is still allowed
      element.muted = true
      report({ type: "media.autoMuted" })
      ;(element.play() as Promise<void> | undefined)?.catch(() => report({ type: "media.paused" }))
    })
  }

  const listeners: Array<[string, () => void]> = [
    ["playing", () => report({ type: "media.playing" })],
    ["pause", () => report({ type: "media.paused" })],
    ["waiting", () => report({ type: "media.waiting" })],
    ["ended", () => report({ type: "media.ended" })],
    ["volumechange", () => report({ type: "media.volumeChanged" })],
    [
      "error",
      () => {
        const code = element.error?.code ?? 0
        if (code === MediaErrorCode.NETWORK) report(fault("network", loadFailureCode()))
        else if (code === MediaErrorCode.DECODE) report(fault("media", code))
        else report(failed(code))
      }
    ]
  ]
  for (const [name, listener] of listeners) element.addEventListener(name, listener)

  // Losing the network says so at once rather than after hls.js's retries run out; the picture
  // stops with it. Coming back is only news: the player decides whether to load again.
  const connectivity = deps.connectivity ?? browserWindow()
  const connectivityListeners: Array<[string, () => void]> = [
    [
      "offline",
      () => {
        if (!active) return
        report(failed(MediaErrorCode.NO_INTERNET))
        element.pause()
      }
    ],
    ["online", () => report({ type: "media.reconnected" })]
  ]
  for (const [name, listener] of connectivityListeners) connectivity?.addEventListener(name, listener)

  const context: EngineContext = {
    element,
    source,
    lowLatency,
    ...(startAt === undefined ? {} : { startAt }),
    report,
    loadFailureCode,
    onManifest: () => {
      if (active) play()
    }
  }

  const begin = (): void => {
    if (deps.hasMse() && deps.prefersNative?.(lowLatency) !== true) {
      starting = true
      // only a first start: a retry after a failure must see the network's answer, not an old one
      const prefetch = !retried ? deps.prefetch?.(source, lowLatency, undefined, startAt) : undefined
      deps.preloadHls?.()
      // running hls.js takes the main thread a while: first let the playlist in and the segment request out
      ;(prefetch?.ready ?? Promise.resolve())
        .then(() => deps.loadHls())
        .then(
          (HlsClass) => {
            starting = false
            if (!active) return prefetch?.cancel()
            if (HlsClass.isSupported()) engine = createHlsEngine(HlsClass, prefetch === undefined ? context : { ...context, prefetch })
            else {
              prefetch?.cancel()
              engine = createNativeEngine(context)
            }
          },
          () => {
            // the lazily loaded chunk itself could not be fetched
            starting = false
            prefetch?.cancel()
            report(fault("network", loadFailureCode()))
          }
        )
    } else if (element.canPlayType(HLS_MIME) !== "") {
      engine = createNativeEngine(context)
    } else {
      report(failed(MediaErrorCode.SRC_NOT_SUPPORTED))
    }
  }

  if (deps.pageProtocol() === "https:" && source.startsWith("http:")) report(failed(MediaErrorCode.MIXED_CONTENT))
  else begin()

  const liveLimit = (timing: MediaTiming): number => (timing.live ? (engine?.liveSyncPosition() ?? timing.end) : timing.end)

  return {
    play,
    seekTo: (time) => {
      const timing = engine?.timing() ?? null
      if (timing === null) return
      element.currentTime = clamp(time, timing.start, liveLimit(timing))
    },
    seekToLive: () => {
      const position = engine?.liveSyncPosition() ?? null
      if (position !== null) element.currentTime = position
      if (element.paused) play()
    },
    timing: () => engine?.timing() ?? null,
    recover: (kind) => {
      if (engine === undefined) {
        retried = true
        if (!starting) begin()
        return
      }
      engine.recover(kind)
      // a reload that beat the buffer running dry leaves the picture running: no new `playing` comes
      if (kind === "network" && !element.paused && element.readyState >= HAVE_FUTURE_DATA) report({ type: "media.playing" })
    },
    end: () => {
      active = false
      for (const [name, listener] of listeners) element.removeEventListener(name, listener)
      for (const [name, listener] of connectivityListeners) connectivity?.removeEventListener(name, listener)
      engine?.destroy()
    }
  }
}
