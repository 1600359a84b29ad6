/**
 * One relayed channel: the upstream playlists it follows (the channel's own and, for a
 * multivariant upstream, each variant somebody watches), and its media, each fetched once and kept
 * in the ring. It runs while somebody watches (or always, when kept on) and reports its health.
 */
import { reloadAsked } from "../http/hlsQuery.ts"
import { FeedBase } from "./feedBase.ts"
import type { FfmpegProgress } from "./ffmpegProgress.ts"
import { Follower, requestHeaders } from "./relayFollower.ts"
import { type RelayPlaylist, reaches, type UpstreamUri } from "./relayPlaylist.ts"
import type { RelayRing, RingEntry } from "./relayRing.ts"
import { fetchUpstream, mediaType } from "./relayUpstream.ts"
import { RelayWindow } from "./relayWindow.ts"
import { PeerWindows, type WindowCopy, windowCopyOf } from "./timeshiftPeer.ts"
import { windowedPlaylist } from "./timeshiftPlaylist.ts"
import { MAIN_TRACK, type TimeshiftStore } from "./timeshiftStore.ts"

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
  /** who sends the media, when staff may know it (an ingest channel's publisher: "RTMP from 203.0.113.7") */
  readonly source?: string | null
  /** ffmpeg's own figures, for the feeds it runs */
  readonly encoder?: FfmpegProgress | null
}

export interface RelaySettings {
  readonly channel: string
  readonly upstreamUrl: string
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly alwaysOn: boolean
  /**
   * The feed follows the instance that owns the channel, not the upstream: the peer's URIs keep
   * their names, and each request carries what the peer needs to know (our credentials, our viewers).
   */
  readonly peer?: { readonly headers: () => ReadonlyArray<readonly [string, string]> }
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
const MAX_MEDIA_BYTES = 64 * 1024 * 1024
// a variant nobody asked for in this long is no longer followed (the players switched away)
const VARIANT_IDLE_MS = 30_000
// media named by a playlist stay fetchable this long after the last playlist that named them
const KNOWN_FOR_MS = 120_000
const BITRATE_WINDOW_MS = 30_000

export interface RelayFeedDeps {
  readonly ring: RelayRing
  readonly now: () => number
  readonly timing: RelayTiming
  /** the channels' time-shift windows; without it there are none */
  readonly timeshift?: TimeshiftStore
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

/** A channel's feed as the routes and the instance's feeds use it, whatever its kind. */
export interface ChannelFeed {
  readonly channel: string
  settings: RelaySettings
  readonly isRunning: boolean
  /** A viewer asked for something of the channel: it runs (again) and counts them. */
  touch(viewer: string): void
  /** Another instance takes the channel from this one, for `viewers` of its own. */
  touchPeer(peer: string, viewers: number): void
  viewerCount(): number
  start(): void
  stop(): void
  /** Resolves once what the feed stopped (its child processes) has gone. */
  settled?(): Promise<void>
  /** Stops a feed nobody watches, forgets what is stale; called every few seconds. */
  tidy(): void
  health(): FeedHealth
  /** The channel's own playlist (`name` undefined) or one of its variants, held for a blocking reload. */
  playlist(name: string | undefined, query: Readonly<Record<string, unknown>>): Promise<PlaylistAnswer>
  media(name: string): Promise<MediaAnswer>
  /**
   * The TV player's playlist: `live` (the channel's own or variant `name`) with the time-shift
   * window in front, as a delta update when `skip`; undefined when there is no window to add.
   */
  windowed?(name: string | undefined, live: RelayPlaylist, skip: boolean): Promise<Array<string> | undefined>
  /** The window's index from `from` on (all of it for a copy of another epoch), for another instance. */
  windowCopy?(track: string, from: number, epoch: string | undefined): WindowCopy | undefined
}

/** A window's segment or init section as media. */
export const windowEntry = (name: string, body: Buffer): RingEntry => ({ body, contentType: mediaType("", `http://media/${name}`) })

export class RelayFeed extends FeedBase implements ChannelFeed {
  private startedAt = 0
  private root: Follower | undefined
  private readonly variants = new Map<string, Follower>()
  private readonly known = new Map<string, { readonly uri: UpstreamUri; seenAt: number }>()
  private readonly inFlight = new Map<string, Promise<MediaAnswer>>()
  private readonly transfers: Array<{ readonly at: number; readonly bytes: number }> = []
  private upstreamStatus: number | null = null
  private lastError: string | null = null
  private restarts = 0
  private failedBefore = false
  /** the owner's recorder of the window, or a peer's copy of the owner's */
  private recorder: RelayWindow | undefined
  private peerWindows: PeerWindows | undefined

  start(): void {
    if (this.running) return
    this.running = true
    this.startedAt = this.deps.now()
    this.lastError = null
    this.upstreamStatus = null
    const store = this.deps.timeshift
    if (store !== undefined && this.settings.peer === undefined)
      this.recorder ??= new RelayWindow(this.channel, store, (name) => this.media(name))
    if (store !== undefined && this.settings.peer !== undefined)
      this.peerWindows ??= new PeerWindows(
        this.channel,
        () => this.settings.upstreamUrl,
        () => requestHeaders(this.settings)
      )
    this.root = this.follow(this.settings.upstreamUrl, MAIN_TRACK)
  }

  stop(): void {
    this.running = false
    this.recorder?.stop()
    this.root?.stop()
    this.root = undefined
    for (const variant of this.variants.values()) variant.stop()
    this.variants.clear()
    this.known.clear()
    this.audience.clear()
    this.deps.ring.clear(this.channel)
  }

  /** Stops a feed nobody watches and variants nobody follows; called every few seconds. */
  tidy(): void {
    const at = this.deps.now()
    if (this.running && !this.settings.alwaysOn && at - this.audience.lastSeenAt > this.deps.timing.lingerMs) this.stop()
    for (const [name, variant] of this.variants) {
      if (at - variant.lastAskedAt > VARIANT_IDLE_MS) {
        variant.stop()
        this.variants.delete(name)
      }
    }
    for (const [name, known] of this.known) if (at - known.seenAt > KNOWN_FOR_MS) this.known.delete(name)
    this.audience.tidy()
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
      viewers: this.audience.count(),
      restarts: this.restarts,
      lastError: this.lastError
    }
  }

  /**
   * The channel's own playlist (`name` undefined) or one of its variants, for a viewer: held for a
   * blocking reload until it has what was asked for, at most three target durations.
   */
  async playlist(name: string | undefined, query: Readonly<Record<string, unknown>>): Promise<PlaylistAnswer> {
    const asked = reloadAsked(query)
    if (asked.kind === "bad") return asked
    const { msn, part } = asked
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

  /** A segment, part, init section or key the channel's playlists named: from the ring or the window, else fetched once. */
  async media(name: string): Promise<MediaAnswer> {
    const kept = this.deps.ring.get(this.channel, name)
    if (kept !== undefined) return { kind: "media", entry: kept }
    const old = await this.windowMedia(name)
    if (old !== undefined) return { kind: "media", entry: old }
    const known = this.known.get(name)
    if (known === undefined || known.uri.playlist) return { kind: "unknown" }
    let pending = this.inFlight.get(name)
    if (pending === undefined) {
      pending = this.fetchMedia(name, known.uri).finally(() => this.inFlight.delete(name))
      this.inFlight.set(name, pending)
    }
    return pending
  }

  private async fetchMedia(name: string, { url, range }: UpstreamUri): Promise<MediaAnswer> {
    const target = this.newestPlaylist()?.targetDuration ?? 6
    try {
      // a preload-hinted part is held by the upstream until it is out
      const answer = await fetchUpstream({
        url,
        headers: requestHeaders(this.settings),
        maxBytes: MAX_MEDIA_BYTES,
        ...(range === undefined ? {} : { range }),
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

  async windowed(name: string | undefined, live: RelayPlaylist, skip: boolean): Promise<Array<string> | undefined> {
    const store = this.deps.timeshift
    if (store === undefined || !store.recording || live.multivariant) return undefined
    const track = name ?? MAIN_TRACK
    const index = this.peerWindows !== undefined ? await this.peerWindows.view(track, live) : store.track(this.channel, track).index
    return index === undefined ? undefined : windowedPlaylist(live, index, { channel: this.channel, skip })
  }

  windowCopy(track: string, from: number, epoch: string | undefined): WindowCopy | undefined {
    const store = this.deps.timeshift
    if (store === undefined || this.settings.peer !== undefined || !store.recording) return undefined
    const window = store.existing(this.channel, track)
    return window === undefined ? undefined : windowCopyOf(window.index, from, epoch)
  }

  /** An old segment or init section of the window: ours on disk, or the owner's. */
  private async windowMedia(name: string): Promise<RingEntry | undefined> {
    const store = this.deps.timeshift
    if (store === undefined) return undefined
    if (this.settings.peer !== undefined) return this.peerWindows?.holds(name) === true ? this.peerWindows.media(name) : undefined
    const bytes = await store.holding(this.channel, name)?.read(name)
    return bytes === undefined ? undefined : windowEntry(name, bytes)
  }

  private variant(name: string): Follower | undefined {
    const existing = this.variants.get(name)
    if (existing !== undefined) return existing
    const uri = this.known.get(name)?.uri ?? this.root?.playlist?.uris.get(name)
    if (uri === undefined || !uri.playlist || !this.running) return undefined
    const follower = this.follow(uri.url, name)
    this.variants.set(name, follower)
    return follower
  }

  private follow(url: string, track: string): Follower {
    const recorder = this.recorder
    return new Follower(url, {
      ...(recorder === undefined
        ? {}
        : {
            numberingFor: (playlist: RelayPlaylist) => recorder.numberingFor(track, playlist),
            listed: (playlist: RelayPlaylist) => recorder.listed(track, playlist)
          }),
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
