import type { ApiResult } from "../domain/api.ts"
import { playerPageOf } from "../domain/playerRoute.ts"
import { LOW_LATENCY_PLAYER, sourceFor } from "../domain/Stream.ts"
import type { MediaFact } from "./hlsMediaProtocol.ts"
import { startSession, type Session, type SessionDeps } from "./hlsMediaSession.ts"
import type { CallApi } from "./http.ts"
import type { StoredVolume } from "./volumeStore.ts"

/** A stand-in for the player page, shown until the app has rendered the real one around the video. */
export interface WarmShell {
  readonly video: HTMLVideoElement
  /** takes the stand-in away and shows the app */
  readonly remove: () => void
}

export interface WarmPlayerDeps {
  readonly callApi: CallApi
  readonly media: SessionDeps
  readonly token: string | null
  readonly volume: () => StoredVolume
  readonly mountShell: () => WarmShell
  readonly watchFirstFrame: (element: HTMLVideoElement, report: (ms: number) => void) => () => void
  /** how long the app waits for the first frame before it starts anyway */
  readonly patienceMs: number
}

export interface WarmPlayer {
  /** The first frame is on screen, the warm start gave up, or patience ran out: time to start the app. */
  readonly settled: Promise<void>
  /** the start-up answers it fetched, for the app's own first calls */
  readonly maintenance: Promise<ApiResult<"maintenance"> | undefined>
  readonly streams: Promise<ApiResult<"streams"> | undefined>
  /** Moves the playing video into the page's player and takes the stand-in away; undefined if there is none. */
  readonly placeVideo: (container: HTMLElement) => HTMLVideoElement | undefined
  /** The running session, when the page's player asks for this very source on this very element. */
  readonly adopt: (element: HTMLVideoElement, source: string, lowLatency: boolean, sendBack: (fact: MediaFact) => void) => Session | undefined
  /** Ends whatever was not handed over and shows the app. */
  readonly release: () => void
}

/**
 * Opened straight onto a player page, the stream starts before the app: the start-up calls, the
 * player library and the stream's first data all load at once, and the picture plays in a
 * stand-in of the page while the app's own code loads. The app's player then adopts the element
 * and its session (the facts so far are replayed to it) instead of starting over. Anything out of
 * the ordinary (no session, maintenance, a stream that cannot play here) leaves it all to the app.
 */
export const startWarmPlayer = (page: { readonly pathname: string; readonly search: string }, deps: WarmPlayerDeps): WarmPlayer | undefined => {
  const route = playerPageOf(page.pathname, page.search)
  if (route === null || deps.token === null) return undefined
  const lowLatency = route.player === LOW_LATENCY_PLAYER
  deps.media.preloadHls?.()
  const maintenance = deps.callApi("maintenance")
  const streams = deps.callApi("streams")

  let settle: () => void = () => undefined
  const settled = new Promise<void>((resolve) => (settle = resolve))
  const patience = setTimeout(() => settle(), deps.patienceMs)
  void settled.then(() => clearTimeout(patience))

  let done = false
  let shell: WarmShell | undefined
  let session: { readonly source: string; readonly element: HTMLVideoElement; readonly running: Session; readonly stopWatching: () => void } | undefined
  let forward: ((fact: MediaFact) => void) | undefined
  const facts: Array<MediaFact> = []
  const relay = (fact: MediaFact): void => {
    if (forward !== undefined) return forward(fact)
    facts.push(fact)
    // the app shows errors: it should not wait for a picture that is not coming
    if (fact.type === "media.failed" || fact.type === "media.fault") settle()
  }

  const release = (): void => {
    if (done) return
    done = true
    if (forward === undefined) {
      session?.running.end()
      session?.stopWatching()
    }
    shell?.remove()
    shell = undefined
    settle()
  }

  void Promise.all([maintenance, streams]).then(([status, list]) => {
    if (done) return
    const stream = list?.success === true ? list.data[route.index] : undefined
    const source = sourceFor(stream, route.player)
    const open = status !== undefined && "maintenanceMode" in status && !status.maintenanceMode
    if (!open || stream === undefined || stream.maintenance_mode || source === null) return release()
    shell = deps.mountShell()
    const { video } = shell
    const { volume, muted } = deps.volume()
    video.volume = volume
    video.muted = muted
    const stopWatching = deps.watchFirstFrame(video, (ms) => {
      relay({ type: "media.firstFrame", ms })
      settle()
    })
    session = { source, element: video, running: startSession(deps.media, video, source, lowLatency, relay), stopWatching }
  })

  return {
    settled,
    maintenance,
    streams,
    placeVideo: (container) => {
      if (done || shell === undefined) return undefined
      const { video } = shell
      // moved within one task, the element never leaves the document long enough to pause
      container.prepend(video)
      shell.remove()
      shell = undefined
      return video
    },
    adopt: (element, source, wantsLowLatency, sendBack) => {
      if (done || session === undefined || forward !== undefined) return undefined
      if (element !== session.element || source !== session.source || wantsLowLatency !== lowLatency) {
        release()
        return undefined
      }
      forward = sendBack
      for (const fact of facts.splice(0)) sendBack(fact)
      done = true
      return session.running
    },
    release
  }
}
