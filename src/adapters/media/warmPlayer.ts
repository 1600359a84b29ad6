import type { MediaFact } from "../../domain/MediaProtocol.ts"
import { LOW_LATENCY_PLAYER, sourceFor } from "../../domain/playerChoice.ts"
import { playerPageOf } from "../../domain/playerRoute.ts"
import type { StartPlaylist, Stream } from "../../domain/Stream.ts"
import { readPlayerStart } from "../../domain/Timeshift.ts"
import type { StoredVolume } from "../storage/volumeStore.ts"
import { type HlsSession, type HlsSessionDeps, startSession } from "./hlsMediaSession.ts"

/** A stand-in for the player page, shown until the app has rendered the real one around the video. */
export interface WarmShell {
  readonly video: HTMLVideoElement
  /** puts the stand-in on the page (in place of the app, which renders hidden until `remove`) */
  readonly show: () => void
  /** takes the stand-in away and shows the app */
  readonly remove: () => void
}

/** The start-up answers as they arrived, undecoded (undefined when a call failed). */
export interface StartupAnswers {
  readonly maintenance: Promise<unknown>
  readonly streams: Promise<unknown>
}

export interface WarmPlayerDeps {
  /** sends the start-up calls: asked only on a player page with a stored session */
  readonly answers: (token: string) => StartupAnswers
  readonly media: HlsSessionDeps
  readonly token: string | null
  readonly volume: () => StoredVolume
  readonly createShell: () => WarmShell
  readonly watchFirstFrame: (element: HTMLVideoElement, report: (ms: number) => void) => () => void
  /** how long the app waits for the first frame before it starts anyway */
  readonly patienceMs: number
}

export interface WarmPlayer {
  /** The first frame is on screen, the warm start gave up, or patience ran out: time to start the app. */
  readonly settled: Promise<void>
  /** Moves the playing video into the page's player and takes the stand-in away; undefined if there is none. */
  readonly placeVideo: (container: HTMLElement) => HTMLVideoElement | undefined
  /** The running session, when the page's player asks for this very source on this very element, from the same start. */
  readonly adopt: (
    element: HTMLVideoElement,
    source: string,
    lowLatency: boolean,
    sendBack: (fact: MediaFact) => void,
    startAt?: number
  ) => HlsSession | undefined
  /** Ends whatever was not handed over and shows the app. */
  readonly release: () => void
}

type Playable = Pick<Stream, "id" | "src" | "src_sldp" | "maintenance_mode">

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null
const isOptionalText = (value: unknown): value is string | null => value === null || typeof value === "string"

/**
 * Provisional readings of the start-up answers, of just the fields a warm start acts on. The
 * app decodes the very same answers with the API contract before it uses them, and a warm start
 * it does not agree with (maintenance, another source, a refused session) is never handed over.
 */
const isOpen = (answer: unknown): boolean => isRecord(answer) && answer.maintenanceMode === false
/** The playlist that came with the list, when it is this very source's (see StreamsQuery). */
const playlistOf = (answer: unknown, source: string): StartPlaylist | undefined => {
  const playlist = isRecord(answer) ? answer.playlist : undefined
  if (!isRecord(playlist) || playlist.url !== source || typeof playlist.text !== "string") return undefined
  return { url: source, text: playlist.text }
}
const playable = (stream: unknown): Playable | undefined => {
  if (
    !isRecord(stream) ||
    typeof stream.id !== "number" ||
    !isOptionalText(stream.src) ||
    !isOptionalText(stream.src_sldp) ||
    typeof stream.maintenance_mode !== "boolean"
  )
    return undefined
  return { id: stream.id, src: stream.src, src_sldp: stream.src_sldp, maintenance_mode: stream.maintenance_mode }
}
/** The stream named by id (`?stream=`) when the list has it, else the one at the index (`?default=`), as the app picks. */
const streamAt = (answer: unknown, index: number, id: number | undefined): Playable | undefined => {
  if (!isRecord(answer) || answer.success !== true || !Array.isArray(answer.data)) return undefined
  const streams = answer.data.map(playable)
  return streams.find((stream) => id !== undefined && stream?.id === id) ?? streams[index]
}

/**
 * Opened straight onto a player page, the stream starts before the app: the start-up calls, the
 * player library and the stream's first data all load at once, and the picture plays in a
 * stand-in of the page while the app's own code loads. The app's player then adopts the element
 * and its session (the facts so far are replayed to it) instead of starting over. Anything out of
 * the ordinary (no session, maintenance, a stream that cannot play here) leaves it all to the app.
 */
export const startWarmPlayer = (
  page: { readonly pathname: string; readonly search: string },
  deps: WarmPlayerDeps
): WarmPlayer | undefined => {
  const route = playerPageOf(page.pathname, page.search)
  // `?stream=` names the stream by id, `?from=` the moment of its window to start at
  const start = readPlayerStart(page.search)
  if (route === null || deps.token === null) return undefined
  const lowLatency = route.player === LOW_LATENCY_PLAYER
  const { maintenance, streams } = deps.answers(deps.token)

  let settle: () => void = () => undefined
  const settled = new Promise<void>((resolve) => (settle = resolve))
  const patience = setTimeout(() => settle(), deps.patienceMs)
  void settled.then(() => clearTimeout(patience))

  let done = false
  let shell: WarmShell | undefined
  let session:
    | { readonly source: string; readonly element: HTMLVideoElement; readonly running: HlsSession; readonly stopWatching: () => void }
    | undefined
  let forward: ((fact: MediaFact) => void) | undefined
  const facts: Array<MediaFact> = []
  const relay = (fact: MediaFact): void => {
    if (forward !== undefined) forward(fact)
    else facts.push(fact)
    // the app shows errors: it should not wait for a picture that is not coming
    if (fact.type === "media.failed" || fact.type === "media.fault" || fact.type === "media.refused" || fact.type === "media.unavailable")
      settle()
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
    const stream = streamAt(list, route.index, start.streamId)
    const source = sourceFor(stream, route.player)
    if (!isOpen(status) || stream === undefined || stream.maintenance_mode || source === null) return release()
    const created = deps.createShell()
    shell = created
    const { video } = created
    const { volume, muted } = deps.volume()
    video.volume = volume
    video.muted = muted
    const stopWatching = deps.watchFirstFrame(video, (ms) => {
      relay({ type: "media.firstFrame", ms })
      settle()
    })
    // Drawing the stand-in takes the main thread a while: it waits until the playlist is in and the
    // first segment asked for, so that drawing overlaps the download instead of delaying its request.
    const show = (): void => {
      if (shell === created) created.show()
    }
    const prefetch = deps.media.prefetch
    let prefetching = false
    const media: HlsSessionDeps =
      prefetch === undefined
        ? deps.media
        : {
            ...deps.media,
            prefetch: (from, low, _playlist, startAt) => {
              prefetching = true
              const playlist = from === source ? playlistOf(list, source) : undefined
              const ahead = startAt === undefined ? prefetch(from, low, playlist) : prefetch(from, low, playlist, startAt)
              void ahead.ready.then(show)
              return ahead
            }
          }
    session = { source, element: video, running: startSession(media, video, source, lowLatency, relay, start.from), stopWatching }
    // the browser's own HLS (no prefetch) must not play, even just its sound, before it can be seen
    if (!prefetching) show()
  })

  return {
    settled,
    placeVideo: (container) => {
      if (done || shell === undefined) return undefined
      const { video } = shell
      // moved within one task, the element never leaves the document long enough to pause
      container.prepend(video)
      shell.remove()
      shell = undefined
      return video
    },
    adopt: (element, source, wantsLowLatency, sendBack, startAt) => {
      if (done || session === undefined || forward !== undefined) return undefined
      if (element !== session.element || source !== session.source || wantsLowLatency !== lowLatency || startAt !== start.from) {
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
