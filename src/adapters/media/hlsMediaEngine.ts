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
  /** epoch ms to start at, inside the playlist's window; live when absent (or when it is not inside) */
  readonly startAt?: number
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

type Dated = Pick<LevelDetails["fragments"][number], "start" | "duration" | "programDateTime">

/** The fragment playing at `time` (binary search: a time-shift window holds thousands), else the nearest end. */
const fragmentAt = (fragments: ReadonlyArray<Dated>, time: number): Dated | undefined => {
  let low = 0
  let high = fragments.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if ((fragments[middle]?.start ?? 0) <= time) low = middle
    else high = middle - 1
  }
  return fragments[low]
}

/** Epoch ms of media time 0, by the program date time of the fragment at `time`; undefined without dates. */
export const epochOf = (fragments: ReadonlyArray<Dated>, time: number): number | undefined => {
  const fragment = fragmentAt(fragments, time)
  return fragment?.programDateTime == null ? undefined : fragment.programDateTime - fragment.start * 1000
}

/** Whether the moment `at` is later than the window's newest fragment: it has not happened yet. */
export const isAhead = (fragments: ReadonlyArray<Dated>, at: number): boolean => {
  const last = fragments.at(-1)
  const epoch = last === undefined ? undefined : epochOf(fragments, last.start)
  return last !== undefined && epoch !== undefined && at >= epoch + (last.start + last.duration) * 1000
}

/** Where on the media timeline the wall-clock moment `at` is, when a fragment of the window holds it. */
export const positionOf = (fragments: ReadonlyArray<Dated>, at: number): number | null => {
  const epoch = epochOf(fragments, 0)
  const first = fragments[0]
  const last = fragments.at(-1)
  if (epoch === undefined || first === undefined || last === undefined) return null
  const guess = fragmentAt(fragments, (at - epoch) / 1000)
  // the dates may drift from the durations across a discontinuity: the fragment's own date decides
  const date = guess?.programDateTime
  if (guess == null || date == null || at < date || at >= date + guess.duration * 1000) {
    const found = fragments.find(
      (fragment) =>
        fragment.programDateTime != null && at >= fragment.programDateTime && at < fragment.programDateTime + fragment.duration * 1000
    )
    return found?.programDateTime == null ? null : found.start + (at - found.programDateTime) / 1000
  }
  return guess.start + (at - date) / 1000
}

export interface HlsStart {
  /** the playlist (and first segment) already on their way */
  readonly prefetch?: MediaPrefetch | undefined
  /** epoch ms to start at: where the playlist's program date times put it */
  readonly startAt?: number | undefined
  /** the moment to start at is not in the playlist: the library starts live instead */
  readonly onStartMissed?: () => void
}

/**
 * A configured instance; the low-latency player's first rendition is the one closest to 1080p.
 * With a prefetch, its answers are served first and loading starts where its segment is, so the
 * library asks the network for neither. A start at a moment of the window is found once the
 * playlist is in, by its dates.
 */
export const createHls = (HlsClass: typeof Hls, lowLatency: boolean, { prefetch, startAt, onStartMissed }: HlsStart = {}): Hls => {
  const config = lowLatency ? lowLatencyConfig() : tvConfig()
  const placed = prefetch !== undefined || startAt !== undefined
  const hls = new HlsClass({
    ...config,
    ...(placed ? { autoStartLoad: false } : {}),
    ...(prefetch === undefined ? {} : { loader: prefetchingLoader(HlsClass.DefaultConfig.loader, prefetch) })
  })
  if (placed) {
    let first = true
    // a manifest parsed again (a reload after a failure) starts wherever the library thinks best
    hls.on(HlsClass.Events.MANIFEST_PARSED, () => {
      let position = first ? (prefetch?.startPosition() ?? null) : null
      if (first && startAt !== undefined) {
        const fragments = hls.levels[0]?.details?.fragments ?? []
        position = positionOf(fragments, startAt)
        // a moment not reached yet (a reminder's link opened early) is simply live: nothing missed
        if (position === null && !isAhead(fragments, startAt)) onStartMissed?.()
      }
      hls.startLoad(position ?? -1)
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
  const hls = createHls(HlsClass, context.lowLatency, {
    prefetch: context.prefetch,
    startAt: context.startAt,
    onStartMissed: () => report({ type: "media.startMissed" })
  })
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
      // a stand-in for the library (the tests') may leave the fragments out
      const epoch = epochOf(details.fragments ?? [], currentTime)
      return {
        currentTime,
        start: details.fragmentStart,
        end: details.edge,
        live: details.live,
        latency,
        ...(epoch === undefined ? {} : { epoch })
      }
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

type DatedVideo = HTMLVideoElement & { getStartDate?: () => Date }

/** Epoch ms of the element's media time 0, where the browser tells it (Safari's getStartDate). */
const startDateOf = (element: DatedVideo): number | undefined => {
  const date = element.getStartDate?.().getTime()
  return date !== undefined && Number.isFinite(date) ? date : undefined
}

export const createNativeEngine = (context: EngineContext): Engine => {
  const { element, source, startAt } = context
  element.src = source
  if (startAt !== undefined) {
    const place = (): void => {
      element.removeEventListener("loadedmetadata", place)
      const epoch = startDateOf(element)
      const { seekable } = element
      const time = epoch === undefined ? Number.NaN : (startAt - epoch) / 1000
      const end = seekable.length > 0 ? seekable.end(seekable.length - 1) : Number.NaN
      const inside = seekable.length > 0 && time >= seekable.start(0) && time <= end
      if (inside) element.currentTime = time
      else if (!(time > end)) context.report({ type: "media.startMissed" })
    }
    element.addEventListener("loadedmetadata", place)
  }
  // the element has no manifest event of its own; it is ready to be told to play at once
  context.onManifest()
  return {
    timing: () => {
      const timing = elementTiming(element)
      const epoch = startDateOf(element)
      return timing === null || epoch === undefined ? timing : { ...timing, epoch }
    },
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
