import type { MediaFact } from "../../domain/MediaProtocol.ts"
import { grantOf } from "../../domain/streamGrant.ts"
import { loadHls, preloadHls } from "./hlsLibrary.ts"
import type { HlsSession, HlsSessionDeps } from "./hlsMediaSession.ts"
import { prefetchMedia } from "./mediaPrefetch.ts"

/** What playing a stream needs from the browser; the media actor and a page's warm start share it. */
export interface MediaDeps extends HlsSessionDeps {
  /** ms since navigation start */
  readonly now?: () => number
  /** a session already running on this element for this source from this start (the page's warm start), to carry on with */
  readonly adopt?: (
    element: HTMLVideoElement,
    source: string,
    lowLatency: boolean,
    sendBack: (fact: MediaFact) => void,
    startAt?: number
  ) => HlsSession | undefined
  /** A source stopped playing here (another replaced it, the page left or closed): its stream no longer counts for the account. */
  readonly closeStream?: (source: string) => void
  /** Where the page announces it is going away; the window by default. */
  readonly pageLifecycle?: Pick<EventTarget, "addEventListener" | "removeEventListener">
}

const canPlayHlsNatively = (): boolean =>
  typeof document !== "undefined" && document.createElement("video").canPlayType("application/vnd.apple.mpegurl") !== ""

export const browserMediaDeps: MediaDeps = {
  loadHls,
  preloadHls,
  hasMse: () => typeof window !== "undefined" && ("MediaSource" in window || "ManagedMediaSource" in window),
  pageProtocol: () => globalThis.location?.protocol ?? "http:",
  isOnline: () => globalThis.navigator?.onLine ?? true,
  prefersNative: (lowLatency) => !lowLatency && "WebKitPlaybackTargetAvailabilityEvent" in globalThis && canPlayHlsNatively(),
  now: () => performance.now(),
  // low-latency playback starts on parts the library picks itself, so only its playlist is fetched ahead
  prefetch: (source, lowLatency, playlist, startAt) =>
    prefetchMedia(globalThis.fetch.bind(globalThis), source, {
      segment: !lowLatency,
      ...(playlist === undefined ? {} : { playlist }),
      ...(startAt === undefined ? {} : { startAt })
    }),
  // a beacon still goes out as the tab closes; only our origin's sources carry a grant to close
  closeStream: (source) => {
    const grant = grantOf(source)
    if (grant !== null) globalThis.navigator?.sendBeacon?.("/api/streams/close", JSON.stringify({ grant }))
  }
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: { presentationTime?: number }) => void) => number
  cancelVideoFrameCallback?: (handle: number) => void
}

/**
 * Reports once when the first frame reaches the screen: the frame callback says when it was
 * handed to the compositor; browsers without it get the first `playing`, which comes a little later.
 */
export const watchFirstFrame = (element: FrameCallbackVideo, now: () => number, report: (ms: number) => void): (() => void) => {
  if (typeof element.requestVideoFrameCallback === "function") {
    const handle = element.requestVideoFrameCallback((at, metadata) => report(Math.round(metadata.presentationTime ?? at)))
    return () => element.cancelVideoFrameCallback?.(handle)
  }
  const onPlaying = () => report(Math.round(now()))
  element.addEventListener("playing", onPlaying, { once: true })
  return () => element.removeEventListener("playing", onPlaying)
}
