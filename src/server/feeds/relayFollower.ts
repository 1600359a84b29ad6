/**
 * One upstream playlist of a relayed channel, reloaded while the feed runs (by blocking reload
 * when the upstream offers it), rewritten for our origin, with waiters told of every change.
 */

import type { RelaySettings } from "./relayFeed.ts"
import { type Numbering, PlaylistError, type RelayPlaylist, rewritePlaylist, type UpstreamUri } from "./relayPlaylist.ts"
import { fetchUpstream, UpstreamError } from "./relayUpstream.ts"

// Caps on what an upstream may send as a playlist.
const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024
const PLAYLIST_TIMEOUT_MS = 10_000

export interface Upstream {
  readonly settings: RelaySettings
  readonly now: () => number
  readonly fetched: (bytes: number, status: number | null, error: string | null) => void
  readonly renumbered: () => void
  readonly known: (uris: ReadonlyMap<string, UpstreamUri>) => void
  readonly maxBackoffMs: number
  /**
   * The numbering of the first playlist (given as the upstream numbers it): one that goes on from
   * the channel's time-shift window, or undefined for the upstream's own.
   */
  readonly numberingFor?: (playlist: RelayPlaylist) => Numbering | undefined
  /** Told of each new version of a media playlist (after it is taken). */
  readonly listed?: (playlist: RelayPlaylist) => void
}

/** The headers of a request to the feed's upstream (or peer). */
export const requestHeaders = (settings: RelaySettings): ReadonlyArray<readonly [string, string]> =>
  settings.peer === undefined ? settings.headers : [...settings.headers, ...settings.peer.headers()]

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener("abort", done)
      resolve()
    }
    signal.addEventListener("abort", done, { once: true })
  })

const withBlockingQuery = (url: string, sequence: number, part: number | undefined): string => {
  const parsed = new URL(url)
  parsed.searchParams.set("_HLS_msn", String(sequence))
  if (part === undefined) parsed.searchParams.delete("_HLS_part")
  else parsed.searchParams.set("_HLS_part", String(part))
  return parsed.href
}

/** One upstream playlist, reloaded while the feed runs: by blocking reload when the upstream offers it. */
export class Follower {
  playlist: RelayPlaylist | undefined
  /** epoch ms the playlist last changed */
  changedAt = 0
  lastAskedAt: number
  failures = 0
  private text = ""
  private upstreamEdge: { sequence: number; parts: number } | undefined
  private numbering = { sequenceOffset: 0, discontinuityOffset: 0 }
  private readonly waiters = new Set<() => void>()
  private readonly controller = new AbortController()

  readonly url: string
  private readonly upstream: Upstream

  constructor(url: string, upstream: Upstream) {
    this.url = url
    this.upstream = upstream
    this.lastAskedAt = upstream.now()
    void this.run()
  }

  stop(): void {
    this.controller.abort()
    this.notify()
  }

  get stopped(): boolean {
    return this.controller.signal.aborted
  }

  /** Resolves at the next change of the playlist (or stop), or after `ms`. */
  changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiters.add(done)
    })
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter()
  }

  private async run(): Promise<void> {
    const { signal } = this.controller
    const { settings } = this.upstream
    while (!signal.aborted) {
      const current = this.playlist
      const edge = this.upstreamEdge
      const blocking = current !== undefined && edge !== undefined && current.canBlockReload && !current.multivariant && !current.endList
      const url = blocking ? withBlockingQuery(this.url, edge.sequence, current.partTarget > 0 ? edge.parts : undefined) : this.url
      // a blocked request is held up to three target durations by the spec
      const timeoutMs = blocking ? 3000 * current.targetDuration + PLAYLIST_TIMEOUT_MS : PLAYLIST_TIMEOUT_MS
      let changed = false
      try {
        const answer = await fetchUpstream({ url, headers: requestHeaders(settings), maxBytes: MAX_PLAYLIST_BYTES, timeoutMs, signal })
        const text = answer.body.toString("utf8")
        if (text !== this.text) {
          this.take(text, answer.url)
          changed = true
          this.text = text
        }
        this.failures = 0
        this.upstream.fetched(answer.body.length, answer.status, null)
      } catch (error) {
        if (signal.aborted) break
        this.failures += 1
        const message = error instanceof UpstreamError || error instanceof PlaylistError ? error.message : String(error)
        this.upstream.fetched(0, error instanceof UpstreamError ? (error.status ?? null) : 200, message)
        await sleep(Math.min(this.upstream.maxBackoffMs, 500 * 2 ** Math.min(this.failures - 1, 10)), signal)
        continue
      }
      const playlist = this.playlist
      if (playlist === undefined) continue
      if (playlist.multivariant || playlist.endList) await sleep(30_000, signal)
      else if (!playlist.canBlockReload) await sleep((changed ? 1000 : 500) * playlist.targetDuration, signal)
      else if (!changed) await sleep(Math.max(100, 250 * (playlist.partTarget || playlist.targetDuration)), signal)
    }
  }

  /** Takes a new version of the playlist; throws PlaylistError when it is not one (the old one stays). */
  private take(text: string, baseUrl: string): void {
    const { settings, now } = this.upstream
    const fromPeer = settings.peer !== undefined
    let playlist = rewritePlaylist(text, baseUrl, settings.channel, this.numbering, fromPeer)
    const start = this.playlist === undefined && !playlist.multivariant ? this.upstream.numberingFor?.(playlist) : undefined
    if (start !== undefined && (start.sequenceOffset !== 0 || start.discontinuityOffset !== 0)) {
      this.numbering = start
      playlist = rewritePlaylist(text, baseUrl, settings.channel, this.numbering, fromPeer)
    }
    if (!playlist.multivariant) {
      const upstreamEdge = {
        sequence: playlist.edge.sequence - this.numbering.sequenceOffset,
        parts: playlist.edge.parts
      }
      const previous = this.playlist
      // the upstream started again from a lower sequence: ours go on from past the last we listed, after a discontinuity
      if (previous !== undefined && this.upstreamEdge !== undefined && upstreamEdge.sequence < this.upstreamEdge.sequence) {
        const upstreamFirst = playlist.firstSequence - this.numbering.sequenceOffset
        const upstreamDiscontinuity = playlist.discontinuitySequence - this.numbering.discontinuityOffset
        this.numbering = {
          sequenceOffset: previous.edge.sequence + 1 - upstreamFirst,
          discontinuityOffset: previous.discontinuitySequence + 1 - upstreamDiscontinuity
        }
        playlist = rewritePlaylist(text, baseUrl, settings.channel, this.numbering, fromPeer)
        this.upstream.renumbered()
      }
      this.upstreamEdge = upstreamEdge
    }
    this.playlist = playlist
    this.changedAt = now()
    this.upstream.known(playlist.uris)
    if (!playlist.multivariant) this.upstream.listed?.(playlist)
    this.notify()
  }
}
