/**
 * Every channel's time-shift window on this instance (DESIGN.md, "Time-shift"): the segments of the
 * last `timeshiftHours` (a site setting) kept on disk under `<dir>/<channel>/<track>/`, capped in
 * bytes per channel and in total, the oldest dropped first. What the server held when it stopped is
 * read again when it starts, and pruned by age and bytes then and as segments arrive.
 */
import { readdirSync } from "node:fs"
import path from "node:path"
import { DEFAULT_TIMESHIFT_HOURS, HOUR_MS } from "../../domain/Timeshift.ts"
import type { WindowSegment } from "./timeshiftIndex.ts"
import { TimeshiftTrack } from "./timeshiftTrack.ts"

/** Where the windows live and how many bytes they may take. */
export interface TimeshiftStorage {
  readonly dir: string
  /** bytes one channel's window may take (all its tracks) */
  readonly perChannel: number
  /** bytes every channel's window together may take */
  readonly total: number
}

/** The track of a channel's own media playlist; a multivariant relay's variants are tracks named after their playlist. */
export const MAIN_TRACK = "index"

const SAFE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/

export class TimeshiftStore {
  /** the site setting as last read; 0 turns every window off (and empties them) */
  hours = DEFAULT_TIMESHIFT_HOURS
  readonly storage: TimeshiftStorage
  private readonly tracks = new Map<string, Map<string, TimeshiftTrack>>()
  private readonly wallClock: () => number
  private readonly onError: (error: unknown) => void

  constructor(storage: TimeshiftStorage, options: { readonly onError: (error: unknown) => void; readonly wallClock?: () => number }) {
    this.storage = storage
    this.onError = options.onError
    this.wallClock = options.wallClock ?? Date.now
  }

  /** Whether new segments are kept. */
  get recording(): boolean {
    return this.hours > 0
  }

  /** Reads the windows the server left on disk. */
  load(): void {
    let channels: Array<string>
    try {
      channels = readdirSync(this.storage.dir)
    } catch {
      return
    }
    for (const channel of channels) {
      if (!SAFE.test(channel)) continue
      let names: Array<string>
      try {
        names = readdirSync(path.join(this.storage.dir, channel))
      } catch {
        continue
      }
      for (const name of names) if (SAFE.test(name)) this.track(channel, name).load()
    }
    this.prune()
  }

  /** The window of one of a channel's media playlists, made when first asked for (names are our own: a channel's, a playlist's). */
  track(channel: string, name: string = MAIN_TRACK): TimeshiftTrack {
    let tracks = this.tracks.get(channel)
    if (tracks === undefined) {
      tracks = new Map()
      this.tracks.set(channel, tracks)
    }
    let track = tracks.get(name)
    if (track === undefined) {
      if (!SAFE.test(channel) || !SAFE.test(name)) throw new Error(`not a time-shift track: ${channel}/${name}`)
      track = new TimeshiftTrack(this.storage.dir, channel, name, this.onError)
      tracks.set(name, track)
    }
    return track
  }

  /** A track of a channel, if it has been made (by the feed, or read from the disk). */
  existing(channel: string, name: string): TimeshiftTrack | undefined {
    return this.tracks.get(channel)?.get(name)
  }

  /** The track of a channel that lists a segment or init section of this name. */
  holding(channel: string, name: string): TimeshiftTrack | undefined {
    for (const track of this.tracks.get(channel)?.values() ?? []) {
      if (track.index.byName(name) !== undefined || track.hasInit(name)) return track
    }
    return undefined
  }

  /** bytes held by one channel, or by all */
  bytes(channel?: string): number {
    const channels = channel === undefined ? [...this.tracks.values()] : [this.tracks.get(channel) ?? new Map()]
    let bytes = 0
    for (const tracks of channels) for (const track of tracks.values()) bytes += track.bytes
    return bytes
  }

  /** Drops what is older than the window, then the oldest until every cap holds; called as segments arrive. */
  prune(): void {
    const every = [...this.tracks.values()].flatMap((tracks) => [...tracks.values()])
    if (this.hours <= 0) {
      for (const track of every) if (track.index.size > 0) track.clear()
      return
    }
    const cutoff = this.wallClock() - this.hours * HOUR_MS
    for (const track of every) {
      for (let oldest = track.index.oldest(); oldest !== undefined && endOf(oldest) < cutoff; oldest = track.index.oldest()) {
        track.dropOldest()
      }
    }
    for (const tracks of this.tracks.values()) {
      const own = [...tracks.values()]
      let bytes = own.reduce((sum, track) => sum + track.bytes, 0)
      while (bytes > this.storage.perChannel) {
        const freed = dropOldestOf(own)
        if (freed === undefined) break
        bytes -= freed
      }
    }
    let total = every.reduce((sum, track) => sum + track.bytes, 0)
    while (total > this.storage.total) {
      const freed = dropOldestOf(every)
      if (freed === undefined) break
      total -= freed
    }
  }

  /** Forgets a channel's windows and removes their files (the channel was removed). */
  drop(channel: string): void {
    for (const track of this.tracks.get(channel)?.values() ?? []) track.clear()
  }

  /** Resolves once every write asked for so far is done. */
  async settled(): Promise<void> {
    await Promise.all([...this.tracks.values()].flatMap((tracks) => [...tracks.values()].map((track) => track.settled())))
  }
}

const endOf = (segment: WindowSegment): number => segment.programDateTime + segment.duration * 1000

/** Drops the oldest segment of these tracks; the bytes that freed, or undefined when they are all empty. */
function dropOldestOf(tracks: ReadonlyArray<TimeshiftTrack>): number | undefined {
  let oldest: TimeshiftTrack | undefined
  for (const track of tracks) {
    const first = track.index.oldest()
    if (first === undefined) continue
    const current = oldest?.index.oldest()
    if (current === undefined || first.programDateTime < current.programDateTime) oldest = track
  }
  if (oldest === undefined) return undefined
  const before = oldest.bytes
  oldest.dropOldest()
  return before - oldest.bytes
}
