/**
 * A relayed channel's time-shift window as its owner fills it: every complete segment its media
 * playlists list is added to the window's index at once (so the index always reaches the live
 * playlist) and its media fetched once, in order, into the window's files. After the feed was
 * stopped, the upstream's numbers are moved to go on from the window's.
 */
import type { MediaAnswer } from "./relayFeed.ts"
import type { ListedSegment, Numbering, RelayPlaylist } from "./relayPlaylist.ts"
import type { WindowSegment } from "./timeshiftIndex.ts"
import type { TimeshiftStore } from "./timeshiftStore.ts"
import type { TimeshiftTrack } from "./timeshiftTrack.ts"

// a segment whose fetch failed is asked for once more after this long, then listed as a gap
const RETRY_MS = 1000

interface Job {
  readonly track: TimeshiftTrack
  readonly segment: WindowSegment
}

export class RelayWindow {
  private readonly jobs: Array<Job> = []
  private working = false
  private generation = 0
  private readonly channel: string
  private readonly store: TimeshiftStore
  private readonly fetch: (name: string) => Promise<MediaAnswer>

  /** `fetch`: the feed's own media (from its ring, an upstream request in flight, or a new one). */
  constructor(channel: string, store: TimeshiftStore, fetch: (name: string) => Promise<MediaAnswer>) {
    this.channel = channel
    this.store = store
    this.fetch = fetch
  }

  /** The numbering a media playlist starts with: the upstream's, or one going on from the window. */
  numberingFor(trackName: string, playlist: RelayPlaylist): Numbering | undefined {
    const track = this.store.track(this.channel, trackName)
    const next = track.index.next
    if (!this.store.recording || next === undefined) return undefined
    // the upstream still lists what the window has: the same numbers, no gap
    for (const listed of playlist.segments ?? []) {
      const kept = listed.name === undefined ? undefined : track.index.byName(listed.name)
      if (kept === undefined) continue
      // nothing was missed, even across a restart of the server
      track.junction = false
      return { sequenceOffset: kept.sequence - listed.sequence, discontinuityOffset: 0 }
    }
    track.junction = true
    return { sequenceOffset: next - playlist.firstSequence, discontinuityOffset: 0 }
  }

  /** A new version of a media playlist: its segments the window lacks are added, and fetched. */
  listed(trackName: string, playlist: RelayPlaylist): void {
    if (!this.store.recording) return
    const track = this.store.track(this.channel, trackName)
    const listed = playlist.segments ?? []
    let after = listed.length
    for (let i = listed.length - 1; i >= 0 && (listed[i] as ListedSegment).sequence >= (track.index.next ?? 0); i -= 1) after = i
    const fresh = listed.slice(after)
    // media we cannot keep as they are (encrypted, or not fetched by us): the window stops short of the live playlist
    if (fresh.some((segment) => segment.encrypted || segment.name === undefined)) return
    const endsAt = Date.now()
    let remaining = fresh.reduce((sum, segment) => sum + segment.duration, 0)
    for (const segment of fresh) {
      // a date counted on from the segment before, unless a gap (or the feed's stop) lies between them
      const newest = track.index.newest()
      const counted =
        newest !== undefined && newest.sequence === segment.sequence - 1 && !segment.discontinuity && !track.junction
          ? newest.programDateTime + newest.duration * 1000
          : undefined
      const programDateTime = segment.programDateTime ?? counted ?? endsAt - remaining * 1000
      remaining -= segment.duration
      const added = track.add({
        sequence: segment.sequence,
        duration: segment.duration,
        programDateTime,
        // numbers that jump (the upstream started again) follow a gap
        discontinuity: segment.discontinuity || (track.index.next !== undefined && segment.sequence > track.index.next),
        name: segment.name as string,
        map: segment.map
      })
      if (added === undefined) continue
      if (segment.gap) track.lost(added)
      else this.jobs.push({ track, segment: added })
    }
    this.store.prune()
    void this.work()
  }

  /** The feed stopped: what is still to fetch is not. */
  stop(): void {
    this.generation += 1
    this.jobs.length = 0
  }

  private async work(): Promise<void> {
    if (this.working) return
    this.working = true
    const generation = this.generation
    try {
      for (let job = this.jobs.shift(); job !== undefined && generation === this.generation; job = this.jobs.shift()) {
        await this.keep(job, generation)
      }
    } finally {
      this.working = false
    }
    if (this.jobs.length > 0) void this.work()
  }

  private async keep({ track, segment }: Job, generation: number): Promise<void> {
    // dropped by a cap before its turn
    if (track.index.byName(segment.name) !== segment) return
    if (segment.map !== undefined && !track.hasInit(segment.map)) {
      const init = await this.fetch(segment.map)
      if (init.kind === "media") track.keepInit(segment.map, init.entry.body)
    }
    for (let attempt = 0; attempt < 2 && generation === this.generation; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
      const answer = await this.fetch(segment.name)
      if (answer.kind === "media") {
        track.keep(segment, answer.entry.body)
        this.store.prune()
        return
      }
      if (answer.kind === "unknown") break
    }
    track.lost(segment)
  }
}
