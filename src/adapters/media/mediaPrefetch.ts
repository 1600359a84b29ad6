import { playlistMoment } from "../../domain/playlistMoment.ts"
import { playlistStart } from "../../domain/playlistStart.ts"
import type { StartPlaylist } from "../../domain/Stream.ts"

/** A response fetched ahead of the player library, with the times the library's own loader would record. */
export interface Prefetched {
  /** the final URL (after redirects): relative URIs in a playlist resolve against it */
  readonly url: string
  readonly data: string | ArrayBuffer
  /** performance.now() when the request went out, the first byte came and the last one */
  readonly timing: { readonly start: number; readonly first: number; readonly end: number }
}

export interface MediaPrefetch {
  /** The response fetched ahead for this URL, once; undefined when there is none (ask the network). Null: the fetch failed. */
  readonly take: (url: string) => Promise<Prefetched | null> | undefined
  /** Where on the prefetched playlist to start (seconds), so the prefetched segment is the first one played; null: the library decides. */
  readonly startPosition: () => number | null
  /** Settles once the playlist is in and the segment asked for (or either failed): the library has nothing to do before. */
  readonly ready: Promise<void>
  readonly cancel: () => void
}

/** Past this, whatever has not arrived is left to the library's own loader, with its own time-outs and retries. */
export const PREFETCH_TIMEOUT_MS = 8000

export interface PrefetchOptions {
  /** also fetch the segment playback will start with (the TV player; low-latency playback starts on parts) */
  readonly segment: boolean
  /** the source's playlist, already here: used instead of fetching it when it is this very source's */
  readonly playlist?: StartPlaylist
  /** playback starts at this moment of the window (epoch ms), not live: its segment is the one to fetch */
  readonly startAt?: number
}

/** A playlist that came with another answer, as if it had just been fetched. */
const arrived = (url: string, data: string): Prefetched => {
  const now = performance.now()
  return { url, data, timing: { start: now, first: now, end: now } }
}

const absolute = (url: string, base?: string): string | null => {
  try {
    return new URL(url, base ?? globalThis.location?.href).href
  } catch {
    return null
  }
}

/**
 * Fetches a source's playlist, and the segment playback will start with, while the player
 * library is still loading, so neither round trip waits for it. Whatever the library asks for
 * that is not here, or asks for a second time, goes to the network as usual.
 */
export const prefetchMedia = (fetch: typeof globalThis.fetch, source: string, options: PrefetchOptions): MediaPrefetch => {
  const controller = new AbortController()
  const timeout = setTimeout(() => controller.abort(), PREFETCH_TIMEOUT_MS)
  const pending = new Map<string, Promise<Prefetched | null>>()
  let start: number | null = null
  // the start is a position on this very playlist text: it means nothing to a library that fetched its own
  let playlistServed = false

  const get = (url: string, as: "text" | "arrayBuffer"): Promise<Prefetched | null> => {
    const begun = performance.now()
    return fetch(url, { signal: controller.signal, credentials: "same-origin" })
      .then(
        async (response) => {
          if (!response.ok) return null
          const first = performance.now()
          const data = as === "text" ? await response.text() : await response.arrayBuffer()
          return { url: response.url === "" ? url : response.url, data, timing: { start: begun, first, end: performance.now() } }
        },
        () => null
      )
      .catch(() => null)
  }

  const playlistUrl = absolute(source)
  let ready = Promise.resolve()
  if (playlistUrl !== null) {
    const given = options.playlist !== undefined && absolute(options.playlist.url) === playlistUrl ? options.playlist : undefined
    const playlist = given === undefined ? get(playlistUrl, "text") : Promise.resolve(arrived(playlistUrl, given.text))
    pending.set(playlistUrl, playlist)
    ready = playlist.then((answer) => {
      if (!options.segment || answer === null || typeof answer.data !== "string") return
      const moment = options.startAt === undefined ? null : playlistMoment(answer.data, options.startAt)
      const segment = options.startAt === undefined ? playlistStart(answer.data) : moment
      const segmentUrl = segment === null ? null : absolute(segment.uri, answer.url)
      if (segment === null || segmentUrl === null) return
      // the middle of a live start's segment: clear of the tolerance the library allows at its edges
      start = moment?.position ?? segment.start + segment.duration / 2
      pending.set(segmentUrl, get(segmentUrl, "arrayBuffer"))
    })
  }

  return {
    take: (url) => {
      const key = absolute(url)
      const answer = key === null ? undefined : pending.get(key)
      if (key === null || answer === undefined) return undefined
      pending.delete(key)
      if (key === playlistUrl) playlistServed = true
      return answer
    },
    startPosition: () => (playlistServed ? start : null),
    ready,
    cancel: () => {
      clearTimeout(timeout)
      pending.clear()
      controller.abort()
    }
  }
}
