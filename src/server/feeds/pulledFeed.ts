/**
 * A channel pulled from anything ffmpeg reads (MPEG-TS over HTTP, RTSP, UDP, an HLS we cannot
 * pass through): Debian's ffmpeg copies it without re-encoding into fragmented MP4 on its
 * standard output, supervised (restarted with backoff when it dies or stalls, ended with the
 * feed), and our packager makes the channel's LL-HLS of it. It runs while somebody watches.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { reloadAsked } from "../http/hlsQuery.ts"
import { FeedBase } from "./feedBase.ts"
import { type FfmpegProgress, progressReader } from "./ffmpegProgress.ts"
import { Fmp4Error, Fmp4Reader } from "./fmp4.ts"
import { type CompletedSegment, Packager } from "./packager.ts"
import { type ChannelFeed, type FeedHealth, type FeedState, type MediaAnswer, type PlaylistAnswer, windowEntry } from "./relayFeed.ts"
import { type RelayPlaylist, reaches } from "./relayPlaylist.ts"
import { type WindowCopy, windowCopyOf } from "./timeshiftPeer.ts"
import { windowedPlaylist } from "./timeshiftPlaylist.ts"
import { MAIN_TRACK } from "./timeshiftStore.ts"

/** The ffmpeg the server runs; FFMPEG_PATH names another. */
export const ffmpegPath = (): string => process.env.FFMPEG_PATH ?? "ffmpeg"

/** What ffmpeg reads: its input options, and whether it reads them from its standard input. */
export interface FfmpegInput {
  readonly args: ReadonlyArray<string>
  readonly stdin: boolean
}

/** ffmpeg reading `url` (a network source that goes quiet is an error after 10 s, not a wait forever). */
export const pullInput = (url: string): FfmpegInput => ({
  args: [...(/^https?:/i.test(url) ? ["-rw_timeout", "10000000"] : []), "-i", url],
  stdin: false
})

/**
 * ffmpeg reading `input` and writing its audio and video, as they are, as fragments of about 0.4 s
 * that start on each keyframe; its progress, once a second, on its fourth descriptor.
 */
export const ffmpegArguments = (input: FfmpegInput): Array<string> => [
  ...["-hide_banner", "-nostdin", "-loglevel", "error", "-progress", "pipe:3", "-stats_period", "1"],
  ...input.args,
  // MPEG-TS carries AAC with ADTS headers, which MP4 does not take
  ...["-map", "0:v:0?", "-map", "0:a:0?", "-c", "copy", "-bsf:a", "aac_adtstoasc"],
  // delay_moov: the init section waits for the first fragment, so it carries the audio's configuration (which
  // ADTS gives only with its first frame); without it players refuse the track ("mp4a.40")
  ...["-f", "mp4", "-movflags", "empty_moov+delay_moov+default_base_moof+frag_keyframe", "-frag_duration", "400000", "-flush_packets", "1"],
  "pipe:1"
]

/** ffmpeg pulling `url`. */
export const pullArguments = (url: string): Array<string> => ffmpegArguments(pullInput(url))

const BITRATE_WINDOW_MS = 30_000
// without a fragment for this long, ffmpeg is stopped and started again
const STALL_MS = 10_000
const MAX_BACKOFF_MS = 30_000
// an answer this long after start counts as a good run: the next failure starts the backoff afresh
const GOOD_RUN_MS = 60_000

export class PulledFeed extends FeedBase implements ChannelFeed {
  private startedAt = 0
  protected child: ChildProcess | undefined
  protected packager: Packager | undefined
  private restartTimer: NodeJS.Timeout | undefined
  protected failures = 0
  private restarts = 0
  protected lastError: string | null = null
  private lastFragmentAt: number | undefined
  private childStartedAt = 0
  private progress: FfmpegProgress | null = null
  private readonly transfers: Array<{ readonly at: number; readonly bytes: number }> = []
  private readonly waiters = new Set<() => void>()
  private readonly ending = new Set<Promise<void>>()

  start(): void {
    if (this.running) return
    this.running = true
    this.startedAt = this.deps.now()
    this.lastError = null
    this.lastFragmentAt = undefined
    this.failures = 0
    const run = `${Math.floor(this.startedAt / 1000).toString(36)}${randomBytes(3).toString("hex")}`
    // the window goes on after a gap: the same numbering, the next number
    const store = this.deps.timeshift
    const window = store?.recording === true ? store.track(this.channel, MAIN_TRACK) : undefined
    const firstSequence = window?.index.next
    if (window !== undefined && firstSequence !== undefined) window.junction = true
    this.packager = new Packager(
      this.channel,
      run,
      {
        put: (name, body, contentType) => this.deps.ring.set(this.channel, name, { body, contentType }),
        completed: (segment) => this.keep(segment)
      },
      // program date times say when the media arrived: the wall clock's time, whatever the feed's own clock
      Date.now,
      { firstSequence }
    )
    this.spawn()
  }

  /** A complete segment goes into the channel's time-shift window. */
  private keep(segment: CompletedSegment): void {
    const store = this.deps.timeshift
    if (store === undefined || !store.recording) return
    const window = store.track(this.channel, MAIN_TRACK)
    const added = window.add(
      {
        sequence: segment.sequence,
        duration: segment.duration,
        programDateTime: segment.programDateTime,
        discontinuity: segment.discontinuity,
        name: segment.name,
        map: segment.init
      },
      segment.bytes
    )
    if (added !== undefined) window.keepInit(segment.init, segment.initBytes)
    store.prune()
  }

  async windowed(name: string | undefined, live: RelayPlaylist, skip: boolean): Promise<Array<string> | undefined> {
    const store = this.deps.timeshift
    if (name !== undefined || store === undefined || !store.recording) return undefined
    return windowedPlaylist(live, store.track(this.channel, MAIN_TRACK).index, { channel: this.channel, skip })
  }

  windowCopy(track: string, from: number, epoch: string | undefined): WindowCopy | undefined {
    const store = this.deps.timeshift
    const window = store?.recording === true ? store.existing(this.channel, track) : undefined
    return window === undefined ? undefined : windowCopyOf(window.index, from, epoch)
  }

  stop(): void {
    this.running = false
    clearTimeout(this.restartTimer)
    this.end(this.child)
    this.child = undefined
    this.packager = undefined
    this.progress = null
    this.audience.clear()
    this.deps.ring.clear(this.channel)
    this.notify()
  }

  tidy(): void {
    const at = this.deps.now()
    if (this.running && this.idleTooLong()) this.stop()
    this.audience.tidy()
    while ((this.transfers[0]?.at ?? at) < at - BITRATE_WINDOW_MS) this.transfers.shift()
    // ffmpeg alive but silent: the source hangs where ffmpeg's own timeouts do not reach
    const quietSince = this.lastFragmentAt ?? this.childStartedAt
    if (this.child !== undefined && performance.now() - quietSince > STALL_MS + this.deps.timing.startGraceMs) {
      this.lastError = `no media from the source for ${Math.round((performance.now() - quietSince) / 1000)} s`
      this.end(this.child)
    }
  }

  /** Whether the feed has run for nobody long enough to stop. */
  protected idleTooLong(): boolean {
    return !this.settings.alwaysOn && this.deps.now() - this.audience.lastSeenAt > this.deps.timing.lingerMs
  }

  /** What ffmpeg reads now; undefined when there is nothing to read. */
  protected input(): FfmpegInput | undefined {
    return pullInput(this.settings.upstreamUrl)
  }

  /** ffmpeg runs for the input (`attach`), or has ended (`detach`). */
  protected attach(_child: ChildProcess): void {}
  protected detach(_child: ChildProcess): void {}

  /** How long to wait before running ffmpeg again after it ended; undefined: not again. */
  protected restartDelay(_child: ChildProcess): number | undefined {
    if (performance.now() - this.childStartedAt > GOOD_RUN_MS) this.failures = 0
    this.failures += 1
    return Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(this.failures - 1, 5))
  }

  /** Whether ffmpeg ended because its input did (nothing to report). */
  protected endedAsExpected(_child: ChildProcess): boolean {
    return false
  }

  /** Why a viewer gets no playlist yet. */
  protected waitingReason(state: FeedState): "starting" | "signalLost" {
    return state === "failed" ? "signalLost" : "starting"
  }

  /** Who sends the media, for staff; a pulled feed's source is its address, which staff are not shown. */
  protected source(): string | null {
    return null
  }

  state(): FeedState {
    if (!this.running) return "idle"
    const newest = this.lastFragmentAt
    if (newest === undefined)
      return this.failures > 0 && performance.now() - this.childStartedAt > this.deps.timing.failAfterMs ? "failed" : "starting"
    const quiet = performance.now() - newest
    if (quiet > STALL_MS + this.deps.timing.failAfterMs) return "failed"
    return quiet > 3 * 1000 * (this.packager?.playlist()?.targetDuration ?? 2) ? "stalled" : "live"
  }

  health(): FeedHealth {
    const at = this.deps.now()
    const bytes = this.transfers
      .filter((transfer) => transfer.at >= at - BITRATE_WINDOW_MS)
      .reduce((sum, transfer) => sum + transfer.bytes, 0)
    const since = Math.max(1000, Math.min(BITRATE_WINDOW_MS, at - this.startedAt))
    return {
      channel: this.channel,
      state: this.state(),
      upstreamStatus: null,
      newestAgeMs: this.running && this.lastFragmentAt !== undefined ? Math.round(performance.now() - this.lastFragmentAt) : null,
      bitrate: this.running ? Math.round((bytes * 8 * 1000) / since) : 0,
      viewers: this.audience.count(),
      restarts: this.restarts,
      lastError: this.lastError,
      source: this.source(),
      encoder: this.running && this.child !== undefined ? this.progress : null
    }
  }

  async playlist(name: string | undefined, query: Readonly<Record<string, unknown>>): Promise<PlaylistAnswer> {
    if (name !== undefined) return { kind: "unknown" }
    const asked = reloadAsked(query)
    if (asked.kind === "bad") return asked
    const { msn, part } = asked
    // waits are measured on the monotonic clock: the feed's own may be a test's, standing still
    if (this.packager?.playlist() === undefined) {
      const until = performance.now() + this.deps.timing.startGraceMs
      while (this.running && this.packager?.playlist() === undefined && performance.now() < until)
        await this.changed(until - performance.now())
    }
    const playlist = this.packager?.playlist()
    const state = this.state()
    if (playlist === undefined) return { kind: "unavailable", reason: this.waitingReason(state) }
    if (state === "stalled" || state === "failed") return { kind: "unavailable", reason: "signalLost" }
    if (msn === undefined) return { kind: "playlist", playlist }
    if (msn > playlist.edge.sequence + 1) return { kind: "bad", detail: "_HLS_msn is too far in the future" }
    const deadline = performance.now() + 3000 * playlist.targetDuration
    while (this.running && performance.now() < deadline) {
      const now = this.packager?.playlist()
      if (now !== undefined && reaches(now.edge, msn, part)) return { kind: "playlist", playlist: now }
      await this.changed(deadline - performance.now())
    }
    const last = this.packager?.playlist()
    return last === undefined ? { kind: "unavailable", reason: "signalLost" } : { kind: "playlist", playlist: last }
  }

  /** A part, segment or init section of the channel (live, or of its window); the part the playlist hints at is answered once it is out. */
  async media(name: string): Promise<MediaAnswer> {
    const kept = this.deps.ring.get(this.channel, name)
    if (kept !== undefined) return { kind: "media", entry: kept }
    const old = await this.deps.timeshift?.holding(this.channel, name)?.read(name)
    if (old !== undefined) return { kind: "media", entry: windowEntry(name, old) }
    const playlist = this.packager?.playlist()
    const hinted = playlist === undefined ? undefined : this.packager?.partName(playlist.edge.sequence, playlist.edge.parts)
    if (hinted !== name || playlist === undefined) return { kind: "unknown" }
    const deadline = performance.now() + 3000 * playlist.partTarget + 2000
    while (this.running && performance.now() < deadline) {
      await this.changed(deadline - performance.now())
      const entry = this.deps.ring.get(this.channel, name)
      if (entry !== undefined) return { kind: "media", entry }
    }
    return { kind: "failed", detail: "the part did not come out in time" }
  }

  private changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiters.delete(done)
        resolve()
      }
      const timer = setTimeout(done, Math.max(0, ms))
      this.waiters.add(done)
    })
  }

  protected notify(): void {
    for (const waiter of [...this.waiters]) waiter()
  }

  protected spawn(): void {
    clearTimeout(this.restartTimer)
    const packager = this.packager
    const input = this.input()
    if (!this.running || packager === undefined || input === undefined || this.child !== undefined) return
    this.childStartedAt = performance.now()
    this.progress = null
    const child = spawn(ffmpegPath(), ffmpegArguments(input), { stdio: [input.stdin ? "pipe" : "ignore", "pipe", "pipe", "pipe"] })
    this.child = child
    // a publisher gone before ffmpeg read everything: what it had not read is of no use
    child.stdin?.on("error", () => undefined)
    const progress = progressReader((figures) => (this.progress = figures))
    child.stdio[3]?.on("data", (chunk: Buffer) => progress(chunk))
    const reader = new Fmp4Reader({
      init: (init) => packager.initSection(init),
      fragment: (fragment) => {
        this.lastFragmentAt = performance.now()
        this.transfers.push({ at: this.deps.now(), bytes: fragment.bytes.length })
        packager.fragment(fragment)
        this.notify()
      }
    })
    child.stdout?.on("data", (chunk: Buffer) => {
      try {
        reader.push(chunk)
      } catch (error) {
        this.lastError = error instanceof Fmp4Error ? `ffmpeg's output could not be read (${error.message})` : String(error)
        this.end(child)
      }
    })
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString()}`.slice(-2000)
    })
    child.once("error", (error: NodeJS.ErrnoException) => {
      this.lastError =
        error.code === "ENOENT" ? `ffmpeg is not installed (${ffmpegPath()} not found): apt-get install ffmpeg` : error.message
    })
    child.once("close", (code, signal) => {
      if (this.child === child) this.child = undefined
      packager.end()
      this.detach(child)
      this.notify()
      if (!this.running || this.packager !== packager) return
      const said = this.endedAsExpected(child) ? "" : (stderr.trim().split("\n").at(-1) ?? "")
      if (said !== "") this.lastError = `ffmpeg: ${said.slice(0, 300)}`
      else if (this.lastError === null && !this.endedAsExpected(child) && (code !== 0 || signal !== null))
        this.lastError = `ffmpeg ended (${signal ?? `exit ${code}`})`
      const delay = this.restartDelay(child)
      if (delay === undefined) return
      if (this.lastFragmentAt !== undefined) this.restarts += 1
      this.restartTimer = setTimeout(() => this.spawn(), delay)
    })
    this.attach(child)
  }

  /** Ends a child: asked first, then made to. */
  protected end(child: ChildProcess | undefined): void {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    const force = setTimeout(() => child.kill("SIGKILL"), 2000)
    force.unref()
    const ended = new Promise<void>((resolve) => child.once("close", () => resolve()))
    this.ending.add(ended)
    void ended.then(() => {
      clearTimeout(force)
      this.ending.delete(ended)
    })
  }

  /** Resolves once every ffmpeg the feed ended has gone (the server waits for them before it exits). */
  async settled(): Promise<void> {
    await Promise.all([...this.ending])
  }
}
