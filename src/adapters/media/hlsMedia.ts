import { fromCallback } from "xstate"
import type { MediaCommand, MediaFact, MediaInput } from "../../domain/MediaProtocol.ts"
import { browserMediaDeps, type MediaDeps, watchFirstFrame } from "./browserMedia.ts"
import { type HlsSession, startSession } from "./hlsMediaSession.ts"

/**
 * Plays one HLS source at a time on a video element and reports what happens as `media.*` facts.
 * Each `media.load` replaces the current session (`media.stop` just ends it).
 */
export const createMediaActor = (deps: MediaDeps = browserMediaDeps) =>
  fromCallback<MediaCommand, MediaInput>(({ input, sendBack, receive }) => {
    const { element, lowLatency } = input
    element.playsInline = true
    const now = deps.now ?? (() => performance.now())
    // each source's time to its first picture, for the operator's view of how streams start
    let loadedAt: number | undefined
    const report = (fact: MediaFact): void => {
      sendBack(fact)
      if (fact.type === "media.playing" && loadedAt !== undefined) {
        sendBack({ type: "media.started", ms: Math.max(0, Math.round(now() - loadedAt)) })
        loadedAt = undefined
      }
    }
    const stopWatching = watchFirstFrame(element, now, (ms) => report({ type: "media.firstFrame", ms }))
    let session: HlsSession | undefined
    let source: string | undefined
    const end = (): void => {
      session?.end()
      if (source !== undefined) deps.closeStream?.(source)
      session = undefined
      source = undefined
    }
    // closing the tab ends the stream too; a page kept for going back starts it again on return
    const lifecycle = deps.pageLifecycle ?? (typeof window === "undefined" ? undefined : window)
    const onPageHide = (): void => {
      if (source !== undefined) deps.closeStream?.(source)
    }
    lifecycle?.addEventListener("pagehide", onPageHide)

    receive((command) => {
      switch (command.type) {
        case "media.load":
          end()
          source = command.source
          // a warm start's source was asked for as the page opened
          loadedAt = 0
          // a new source plays at normal speed, whatever the last one was catching up at
          element.playbackRate = 1
          session = deps.adopt?.(element, command.source, lowLatency, report, command.startAt)
          if (session === undefined) {
            loadedAt = now()
            session = startSession(deps, element, command.source, lowLatency, report, command.startAt)
          }
          return
        case "media.stop":
          end()
          return
        case "media.play":
          return session?.play()
        case "media.pause":
          return element.pause()
        case "media.seekTo":
          return session?.seekTo(command.time)
        case "media.seekToLive":
          return session?.seekToLive()
        case "media.rate":
          element.playbackRate = command.rate
          return
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
      lifecycle?.removeEventListener("pagehide", onPageHide)
      end()
    }
  })
