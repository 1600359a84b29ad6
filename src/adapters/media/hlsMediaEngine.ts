import type Hls from "hls.js"
import type { ErrorData, LevelDetails } from "hls.js"
import { MediaErrorCode, mediaErrorMessage } from "../../domain/MediaError.ts"
import type { MediaFact, MediaTiming, RecoveryKind } from "../../domain/MediaProtocol.ts"
import { LOW_LATENCY } from "../../domain/PlayerLimits.ts"
import { levelClosestTo, lowLatencyConfig, tvConfig } from "./hlsMediaConfig.ts"
import { prefetchingLoader } from "./hlsPrefetchLoader.ts"
import type { MediaPrefetch } from "./mediaPrefetch.ts"

/** What a session needs from whatever plays the source: hls.js over MSE, or the browser itself. */
export interface Engine {
  readonly timing: () => MediaTiming | null
  /** the furthest position worth seeking to on a live stream */
  readonly liveSyncPosition: () => number | null
  readonly recover: (kind: RecoveryKind) => void
  readonly destroy: () => void
}

export interface EngineContext {
  readonly element: HTMLVideoElement
  readonly source: string
  readonly lowLatency: boolean
  readonly report: (fact: MediaFact) => void
  /** the error a failed load means on this page right now (mixed content, offline, network) */
  readonly loadFailureCode: () => number
  readonly onManifest: () => void
  /** the playlist (and first segment) already on their way */
  readonly prefetch?: MediaPrefetch
}

const fault = (kind: RecoveryKind, code: number): MediaFact => ({ type: "media.fault", kind, code, message: mediaErrorMessage(code) })
const failed = (code: number): MediaFact => ({ type: "media.failed", code, message: mediaErrorMessage(code) })

const UNSUPPORTED = new Set(["manifestIncompatibleCodecsError", "bufferIncompatibleCodecsError", "keySystemNoKeys"])
// our origin's answers to a playlist whose stream grant it will not take: not the network's fault
const REFUSALS = new Set([403, 410, 429])
const PLAYLIST_LOADS = new Set(["manifestLoadError", "levelLoadError", "audioTrackLoadError", "subtitleTrackLoadError"])

/** The HTTP status of a playlist the origin refused, or undefined for any other error. */
export const refusedStatus = (data: Pick<ErrorData, "details" | "response">): number | undefined => {
  const status = data.response?.code
  return status !== undefined && REFUSALS.has(status) && PLAYLIST_LOADS.has(String(data.details)) ? status : undefined
}

/** Whether our origin said it has no playlist for the channel right now (its feed is starting or lost its signal). */
export const isUnavailable = (data: Pick<ErrorData, "details" | "response">): boolean =>
  data.response?.code === 503 && PLAYLIST_LOADS.has(String(data.details))

/** Turns a fatal hls.js error into a fact: what can be retried is a fault, the rest a failure. */
export const factForHlsError = (HlsClass: typeof Hls, data: Pick<ErrorData, "type" | "details">, networkCode: number): MediaFact => {
  if (UNSUPPORTED.has(String(data.details))) return failed(MediaErrorCode.SRC_NOT_SUPPORTED)
  switch (data.type) {
    case HlsClass.ErrorTypes.NETWORK_ERROR:
      return fault("network", networkCode)
    case HlsClass.ErrorTypes.MEDIA_ERROR:
    case HlsClass.ErrorTypes.MUX_ERROR:
      return fault("media", MediaErrorCode.DECODE)
    case HlsClass.ErrorTypes.KEY_SYSTEM_ERROR:
      return failed(MediaErrorCode.SRC_NOT_SUPPORTED)
    default:
      return failed(0)
  }
}

/** Times on the element alone (native HLS, or hls.js before its first playlist); null while it knows nothing. */
export const elementTiming = (element: HTMLVideoElement): MediaTiming | null => {
  const { currentTime, duration, seekable } = element
  const live = duration === Number.POSITIVE_INFINITY
  const last = seekable.length - 1
  if (last < 0 && !(duration > 0)) return null
  const start = last >= 0 ? seekable.start(0) : 0
  const end = last >= 0 ? seekable.end(last) : Number.isFinite(duration) ? duration : 0
  return { currentTime, start, end, live, latency: live ? Math.max(0, end - currentTime) : null }
}

const detailsOf = (hls: Hls): LevelDetails | undefined => hls.levels[hls.currentLevel >= 0 ? hls.currentLevel : hls.loadLevel]?.details

/**
 * A configured instance; the low-latency player's first rendition is the one closest to 1080p.
 * With a prefetch, its answers are served first and loading starts where its segment is, so the
 * library asks the network for neither.
 */
export const createHls = (HlsClass: typeof Hls, lowLatency: boolean, prefetch?: MediaPrefetch): Hls => {
  const config = lowLatency ? lowLatencyConfig() : tvConfig()
  const hls = new HlsClass(
    prefetch === undefined
      ? config
      : { ...config, autoStartLoad: false, loader: prefetchingLoader(HlsClass.DefaultConfig.loader, prefetch) }
  )
  if (prefetch !== undefined) {
    let first = true
    // a manifest parsed again (a reload after a failure) starts wherever the library thinks best
    hls.on(HlsClass.Events.MANIFEST_PARSED, () => {
      hls.startLoad(first ? (prefetch.startPosition() ?? -1) : -1)
      first = false
    })
  }
  if (lowLatency) {
    hls.on(HlsClass.Events.MANIFEST_PARSED, (_event, data) => {
      // hls.js starts loading right after this event, so the start level set here is the first one fetched
      if (data.levels.length > 1) hls.startLevel = levelClosestTo(data.levels, LOW_LATENCY.initialRendition)
    })
  }
  return hls
}

/** hls.js playing the source on the element. */
export const createHlsEngine = (HlsClass: typeof Hls, context: EngineContext): Engine => {
  const { element, source, report } = context
  const hls = createHls(HlsClass, context.lowLatency, context.prefetch)
  let mediaRecoveries = 0

  hls.on(HlsClass.Events.MANIFEST_PARSED, () => context.onManifest())
  hls.on(HlsClass.Events.ERROR, (_event, data) => {
    if (!data.fatal) return
    const refused = refusedStatus(data)
    if (refused !== undefined) report({ type: "media.refused", status: refused })
    else if (isUnavailable(data)) report({ type: "media.unavailable" })
    else report(factForHlsError(HlsClass, data, context.loadFailureCode()))
  })
  // the manifest request goes out before the media source opens, not after
  hls.loadSource(source)
  hls.attachMedia(element)

  return {
    timing: () => {
      const details = detailsOf(hls)
      if (details === undefined) return elementTiming(element)
      const { currentTime } = element
      const latency = details.live ? (hls.latency > 0 ? hls.latency : Math.max(0, details.edge - currentTime)) : null
      return { currentTime, start: details.fragmentStart, end: details.edge, live: details.live, latency }
    },
    liveSyncPosition: () => hls.liveSyncPosition,
    recover: (kind) => {
      if (kind === "network") {
        // without a parsed manifest there is nothing to resume: ask for it again
        if (hls.levels.length === 0) hls.loadSource(source)
        else hls.startLoad()
        return
      }
      // the second time round the audio codec guess is the usual culprit (hls.js's own advice)
      if (mediaRecoveries > 0) hls.swapAudioCodec()
      mediaRecoveries += 1
      hls.recoverMediaError()
    },
    destroy: () => {
      context.prefetch?.cancel()
      hls.destroy()
    }
  }
}

export const createNativeEngine = (context: EngineContext): Engine => {
  const { element, source } = context
  element.src = source
  // the element has no manifest event of its own; it is ready to be told to play at once
  context.onManifest()
  return {
    timing: () => elementTiming(element),
    liveSyncPosition: () => {
      const { seekable } = element
      return seekable.length > 0 ? seekable.end(seekable.length - 1) : null
    },
    recover: () => {
      element.src = source
      element.load()
      context.onManifest()
    },
    destroy: () => {
      element.removeAttribute("src")
      element.load()
    }
  }
}
