import { fromCallback } from "xstate"
import type { MediaCommand, MediaFact, MediaInput } from "./hlsMediaProtocol.ts"
import { startSession, type Session, type SessionDeps } from "./hlsMediaSession.ts"

export type { MediaCommand, MediaFact, MediaInput } from "./hlsMediaProtocol.ts"

export interface MediaDeps extends SessionDeps {
  /** ms since navigation start */
  readonly now?: () => number
}

const canPlayHlsNatively = (): boolean =>
  typeof document !== "undefined" && document.createElement("video").canPlayType("application/vnd.apple.mpegurl") !== ""

export const browserMediaDeps: MediaDeps = {
  loadHls: () => import("hls.js").then((module) => module.default),
  hasMse: () => typeof window !== "undefined" && ("MediaSource" in window || "ManagedMediaSource" in window),
  pageProtocol: () => globalThis.location?.protocol ?? "http:",
  isOnline: () => globalThis.navigator?.onLine ?? true,
  prefersNative: (lowLatency) => !lowLatency && "WebKitPlaybackTargetAvailabilityEvent" in globalThis && canPlayHlsNatively(),
  now: () => performance.now()
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (callback: (now: number, metadata: { presentationTime?: number }) => void) => number
  cancelVideoFrameCallback?: (handle: number) => void
}

/**
 * Reports once when the first frame reaches the screen: the frame callback says when it was
 * handed to the compositor; browsers without it get the first `playing`, which comes a little later.
 */
const watchFirstFrame = (element: FrameCallbackVideo, now: () => number, report: (ms: number) => void): (() => void) => {
  if (typeof element.requestVideoFrameCallback === "function") {
    const handle = element.requestVideoFrameCallback((at, metadata) => report(Math.round(metadata.presentationTime ?? at)))
    return () => element.cancelVideoFrameCallback?.(handle)
  }
  const onPlaying = () => report(Math.round(now()))
  element.addEventListener("playing", onPlaying, { once: true })
  return () => element.removeEventListener("playing", onPlaying)
}

/**
 * Plays one HLS source at a time on a video element and reports what happens as `media.*` facts.
 * Each `media.load` replaces the current session (`media.stop` just ends it).
 */
export const createMediaActor = (deps: MediaDeps = browserMediaDeps) =>
  fromCallback<MediaCommand, MediaInput>(({ input, sendBack, receive }) => {
    const { element, lowLatency } = input
    element.playsInline = true
    const report = (fact: MediaFact): void => sendBack(fact)
    const stopWatching = watchFirstFrame(element, deps.now ?? (() => performance.now()), (ms) => report({ type: "media.firstFrame", ms }))
    let session: Session | undefined

    receive((command) => {
      switch (command.type) {
        case "media.load":
          session?.end()
          session = startSession(deps, element, command.source, lowLatency, report)
          return
        case "media.stop":
          session?.end()
          session = undefined
          return
        case "media.play":
          return session?.play()
        case "media.pause":
          return element.pause()
        case "media.seekTo":
          return session?.seekTo(command.time)
        case "media.seekToLive":
          return session?.seekToLive()
        case "media.volume":
          element.volume = command.volume
          element.muted = command.muted
          return
        case "media.probe": {
          const timing = session?.timing() ?? null
          if (timing !== null) report({ type: "media.timing", ...timing })
          return
        }
        case "media.recover":
          return session?.recover(command.kind)
      }
    })
    return () => {
      stopWatching()
      session?.end()
    }
  })
