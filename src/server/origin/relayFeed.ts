/**
 * One relayed channel: the upstream playlists it follows (the channel's own and, for a
 * multivariant upstream, each variant somebody watches), and its media, each fetched once and kept
 * in the ring. It runs while somebody watches (or always, when kept on) and reports its health.
 */
import { PlaylistError, type RelayPlaylist, reaches, rewritePlaylist, type UpstreamUri } from "./relayPlaylist.ts"
import type { RelayRing, RingEntry } from "./relayRing.ts"
import { fetchUpstream, UpstreamError } from "./relayUpstream.ts"

export type FeedState = "idle" | "starting" | "live" | "stalled" | "failed"

/** A feed's health as staff see it. */
export interface FeedHealth {
  readonly channel: string
  readonly state: FeedState
  /** the upstream's last HTTP status; null before the first answer or when it could not be reached */
  readonly upstreamStatus: number | null
  /** ms since the newest part or segment appeared; null before the first */
  readonly newestAgeMs: number | null
  /** bits per second fetched from the upstream over the last half minute */
  readonly bitrate: number
  readonly viewers: number
  /** times the feed started again after failing, and times the upstream restarted its numbering */
  readonly restarts: number
  readonly lastError: string | null
}

export interface RelaySettings {
  readonly channel: string
  readonly upstreamUrl: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly alwaysOn: boolean
}

export interface RelayTiming {
  /** a feed with nobody watching stops after this long */
  readonly lingerMs: number
  /** how long a viewer's first request waits for the upstream's first playlist */
  readonly startGraceMs: number
  /** without a new part or segment for this long (after the stall), the feed counts as failed */
  readonly failAfterMs: number
  /** longest wait between retries */
  readonly maxBackoffMs: number
}

export const DEFAULT_RELAY_TIMING: RelayTiming = { lingerMs: 60_000, startGraceMs: 10_000, failAfterMs: 30_000, maxBackoffMs: 10_000 }

// Caps on what an upstream may send: a playlist is text, a segment a few seconds of video.
const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024
const MAX_MEDIA_BYTES = 64 * 1024 * 1024
const PLAYLIST_TIMEOUT_MS = 10_000
// a variant nobody asked for in this long is no longer followed (the players switched away)
const VARIANT_IDLE_MS = 30_000
// media named by a playlist stay fetchable this long after the last playlist that named them
const KNOWN_FOR_MS = 120_000
const VIEWER_WINDOW_MS = 30_000
const BITRATE_WINDOW_MS = 30_000

interface Upstream {
  readonly settings: RelaySettings
  readonly now: () => number
  readonly fetched: (bytes: number, status: number | null, error: string | null) => void
  readonly renumbered: () => void
  readonly known: (uris: ReadonlyMap<string, UpstreamUri>) => void
  readonly maxBackoffMs: number
}

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
class Follower {
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
        const answer = await fetchUpstream({ url, headers: settings.headers, maxBytes: MAX_PLAYLIST_BYTES, timeoutMs, signal })
        const text = answer.body.toString("utf8")
        if (text !== this.text) {
          changed = this.take(text, answer.url)
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

  /** Takes a new version of the playlist; false when it was not one (the old one stays). */
  private take(text: string, baseUrl: string): boolean {
    const { settings, now } = this.upstream
    let playlist = rewritePlaylist(text, baseUrl, settings.channel, this.numbering)
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
        playlist = rewritePlaylist(text, baseUrl, settings.channel, this.numbering)
        this.upstream.renumbered()
      }
      this.upstreamEdge = upstreamEdge
    }
    this.playlist = playlist
    this.changedAt = now()
    this.upstream.known(playlist.uris)
    this.notify()
    return true
  }
}

export interface RelayFeedDeps {
  readonly ring: RelayRing
  readonly now: () => number
  readonly timing: RelayTiming
}

/** What a viewer's playlist request gets: the playlist, or why there is none right now. */
export type PlaylistAnswer =
  | { readonly kind: "playlist"; readonly playlist: RelayPlaylist }
  | { readonly kind: "unavailable"; readonly reason: "starting" | "signalLost" }
  | { readonly kind: "unknown" }
  | { readonly kind: "bad"; readonly detail: string }

export type MediaAnswer =
  | { readonly kind: "media"; readonly entry: RingEntry }
  | { readonly kind: "unknown" }
  | { readonly kind: "failed"; readonly detail: string }

const NUMBER = /^(0|[1-9][0-9]{0,15})$/
const directive = (value: unknown): number | null | undefined => {
  if (value === undefined) return undefined
  if (typeof value !== "string" || !NUMBER.test(value)) return null
  return Number(value)
}

export class RelayFeed {
  private running = false
  private startedAt = 0
  private root: Follower | undefined
  private readonly variants = new Map<string, Follower>()
  private readonly known = new Map<string, { readonly uri: UpstreamUri; seenAt: number }>()
  private readonly inFlight = new Map<string, Promise<MediaAnswer>>()
  private readonly viewers = new Map<string, number>()
  private readonly transfers: Array<{ readonly at: number; readonly bytes: number }> = []
  private lastViewerAt = 0
  private upstreamStatus: number | null = null
  private lastError: string | null = null
  private restarts = 0
  private failedBefore = false

  settings: RelaySettings
  private readonly deps: RelayFeedDeps

  constructor(settings: RelaySettings, deps: RelayFeedDeps) {
    this.settings = settings
    this.deps = deps
  }

  get channel(): string {
    return this.settings.channel
  }

  get isRunning(): boolean {
    return this.running
  }

  /** A viewer asked for something of the channel: it runs (again) and counts them. */
  touch(viewer: string): void {
    const at = this.deps.now()
    this.lastViewerAt = at
    this.viewers.set(viewer, at)
    if (!this.running) this.start()
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.startedAt = this.deps.now()
    this.lastError = null
    this.upstreamStatus = null
    this.root = this.follow(this.settings.upstreamUrl)
  }

  stop(): void {
    this.running = false
    this.root?.stop()
    this.root = undefined
    for (const variant of this.variants.values()) variant.stop()
    this.variants.clear()
    this.known.clear()
    this.viewers.clear()
    this.deps.ring.clear(this.channel)
  }

  /** Stops a feed nobody watches and variants nobody follows; called every few seconds. */
  tidy(): void {
    const at = this.deps.now()
    if (this.running && !this.settings.alwaysOn && at - this.lastViewerAt > this.deps.timing.lingerMs) this.stop()
    if (!this.running && this.settings.alwaysOn) this.start()
    for (const [name, variant] of this.variants) {
      if (at - variant.lastAskedAt > VARIANT_IDLE_MS) {
        variant.stop()
        this.variants.delete(name)
      }
    }
    for (const [name, known] of this.known) if (at - known.seenAt > KNOWN_FOR_MS) this.known.delete(name)
    for (const [viewer, seen] of this.viewers) if (at - seen > VIEWER_WINDOW_MS) this.viewers.delete(viewer)
    while ((this.transfers[0]?.at ?? at) < at - BITRATE_WINDOW_MS) this.transfers.shift()
    const state = this.state()
    if (state === "failed") this.failedBefore = true
    else if (state === "live" && this.failedBefore) {
      this.failedBefore = false
      this.restarts += 1
    }
  }

  state(): FeedState {
    if (!this.running) return "idle"
    const at = this.deps.now()
    const progress = this.progressAt()
    const { failAfterMs } = this.deps.timing
    if (progress === undefined) return this.lastError !== null && at - this.startedAt > failAfterMs ? "failed" : "starting"
    const playlist = this.newestPlaylist()
    if (playlist?.endList === true) return "live"
    const stallAfterMs = Math.max(6000, 3000 * (playlist?.targetDuration ?? 2))
    const quiet = at - progress
    if (quiet > stallAfterMs + failAfterMs) return "failed"
    return quiet > stallAfterMs ? "stalled" : "live"
  }

  health(): FeedHealth {
    const at = this.deps.now()
    const progress = this.progressAt()
    const recent = this.transfers.filter((transfer) => transfer.at >= at - BITRATE_WINDOW_MS)
    const bytes = recent.reduce((sum, transfer) => sum + transfer.bytes, 0)
    const since = Math.max(1000, Math.min(BITRATE_WINDOW_MS, at - this.startedAt))
    return {
      channel: this.channel,
      state: this.state(),
      upstreamStatus: this.upstreamStatus,
      newestAgeMs: this.running && progress !== undefined ? at - progress : null,
      bitrate: this.running ? Math.round((bytes * 8 * 1000) / since) : 0,
      viewers: [...this.viewers.values()].filter((seen) => at - seen <= VIEWER_WINDOW_MS).length,
      restarts: this.restarts,
      lastError: this.lastError
    }
  }

  /**
   * The channel's own playlist (`name` undefined) or one of its variants, for a viewer: held for a
   * blocking reload until it has what was asked for, at most three target durations.
   */
  async playlist(name: string | undefined, query: Readonly<Record<string, unknown>>): Promise<PlaylistAnswer> {
    const msn = directive(query._HLS_msn)
    const part = directive(query._HLS_part)
    if (msn === null) return { kind: "bad", detail: "_HLS_msn must be a media sequence number" }
    if (part === null) return { kind: "bad", detail: "_HLS_part must be a part index" }
    if (part !== undefined && msn === undefined) return { kind: "bad", detail: "_HLS_part needs _HLS_msn" }
    const follower = name === undefined ? this.root : this.variant(name)
    if (follower === undefined) return { kind: "unknown" }
    follower.lastAskedAt = this.deps.now()
    // waits are measured on the monotonic clock: the feed's own may be a test's, standing still
    if (follower.playlist === undefined) {
      const until = performance.now() + this.deps.timing.startGraceMs
      while (follower.playlist === undefined && !follower.stopped && performance.now() < until) {
        await follower.changed(until - performance.now())
      }
    }
    const state = this.state()
    if (follower.playlist === undefined) return { kind: "unavailable", reason: state === "failed" ? "signalLost" : "starting" }
    if (state === "stalled" || state === "failed") return { kind: "unavailable", reason: "signalLost" }
    if (msn !== undefined) {
      const edge = follower.playlist.edge
      // the spec's bound: no more than two segments past the last complete one
      if (msn > edge.sequence + 1) return { kind: "bad", detail: "_HLS_msn is too far in the future" }
      const deadline = performance.now() + 3000 * follower.playlist.targetDuration
      while (!reaches(follower.playlist.edge, msn, part) && !follower.stopped && performance.now() < deadline) {
        await follower.changed(deadline - performance.now())
      }
    }
    return { kind: "playlist", playlist: follower.playlist }
  }

  /** A segment, part, init section or key the channel's playlists named: from the ring, else fetched once. */
  async media(name: string): Promise<MediaAnswer> {
    const kept = this.deps.ring.get(this.channel, name)
    if (kept !== undefined) return { kind: "media", entry: kept }
    const known = this.known.get(name)
    if (known === undefined || known.uri.playlist) return { kind: "unknown" }
    let pending = this.inFlight.get(name)
    if (pending === undefined) {
      pending = this.fetchMedia(name, known.uri.url).finally(() => this.inFlight.delete(name))
      this.inFlight.set(name, pending)
    }
    return pending
  }

  private async fetchMedia(name: string, url: string): Promise<MediaAnswer> {
    const target = this.newestPlaylist()?.targetDuration ?? 6
    try {
      // a preload-hinted part is held by the upstream until it is out
      const answer = await fetchUpstream({
        url,
        headers: this.settings.headers,
        maxBytes: MAX_MEDIA_BYTES,
        timeoutMs: 3000 * target + 10_000
      })
      this.transfers.push({ at: this.deps.now(), bytes: answer.body.length })
      const entry: RingEntry = { body: answer.body, contentType: mediaType(answer.contentType, url) }
      if (this.running) this.deps.ring.set(this.channel, name, entry)
      return { kind: "media", entry }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error)
      return { kind: "failed", detail }
    }
  }

  private variant(name: string): Follower | undefined {
    const existing = this.variants.get(name)
    if (existing !== undefined) return existing
    const uri = this.known.get(name)?.uri ?? this.root?.playlist?.uris.get(name)
    if (uri === undefined || !uri.playlist || !this.running) return undefined
    const follower = this.follow(uri.url)
    this.variants.set(name, follower)
    return follower
  }

  private follow(url: string): Follower {
    return new Follower(url, {
      settings: this.settings,
      now: this.deps.now,
      maxBackoffMs: this.deps.timing.maxBackoffMs,
      fetched: (bytes, status, error) => {
        this.upstreamStatus = status
        if (error !== null) this.lastError = error
        if (bytes > 0) this.transfers.push({ at: this.deps.now(), bytes })
      },
      renumbered: () => {
        this.restarts += 1
      },
      known: (uris) => {
        const at = this.deps.now()
        for (const [name, uri] of uris) {
          const entry = this.known.get(name)
          if (entry === undefined) this.known.set(name, { uri, seenAt: at })
          else entry.seenAt = at
        }
      }
    })
  }

  /** The media playlists followed: the channel's own, or the variants being watched. */
  private mediaFollowers(): Array<Follower> {
    const root = this.root
    if (root === undefined) return []
    if (root.playlist?.multivariant !== true) return [root]
    return [...this.variants.values()].filter((variant) => variant.playlist !== undefined)
  }

  private newestPlaylist(): RelayPlaylist | undefined {
    return this.mediaFollowers().find((follower) => follower.playlist !== undefined)?.playlist
  }

  /** epoch ms of the newest part or segment, or of the multivariant playlist while no variant is followed */
  private progressAt(): number | undefined {
    const root = this.root
    if (root?.playlist === undefined) return undefined
    const followers = this.mediaFollowers()
    if (followers.length === 0) return root.playlist.multivariant ? this.deps.now() : undefined
    return Math.max(...followers.map((follower) => follower.changedAt))
  }
}

const TYPES: Readonly<Record<string, string>> = {
  ts: "video/mp2t",
  m4s: "video/iso.segment",
  mp4: "video/mp4",
  m4a: "audio/mp4",
  m4v: "video/mp4",
  aac: "audio/aac",
  vtt: "text/vtt",
  webvtt: "text/vtt",
  key: "application/octet-stream"
}

/** The upstream's type when it names one we serve as media; otherwise by extension. */
const mediaType = (given: string, url: string): string => {
  const type = given.split(";", 1)[0]?.trim().toLowerCase() ?? ""
  if (/^(video|audio|text\/vtt|application\/(mp4|octet-stream))/.test(type)) return type
  const extension = /\.([A-Za-z0-9]{1,6})$/.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? ""
  return TYPES[extension] ?? "application/octet-stream"
}
