/**
 * Our LL-HLS packager: fragments of about 0.4 s (from ffmpeg) become parts, parts become segments
 * of about 2 s cut where a part starts on a keyframe, each segment stamped with the wall-clock
 * time its media arrived (see RunClock). It keeps the live window and writes the channel's playlist the way
 * the relay serves its own (`RelayPlaylist`), so the same routes, grants and blocking reloads apply.
 */
import type { Fragment } from "./fmp4.ts"
import { GRANT, localPath, type RelayPlaylist } from "./relayPlaylist.ts"

/** How long a segment aims to be, and the longest it may grow while no keyframe comes. */
const SEGMENT_SECONDS = 2
const MAX_SEGMENT_SECONDS = 6
/** Complete segments in the playlist, and how many of the newest keep listing their parts. */
const WINDOW_SEGMENTS = 8
const PART_SEGMENTS = 3

interface Part {
  readonly name: string
  readonly duration: number
  readonly independent: boolean
}

interface Segment {
  readonly sequence: number
  /** seconds of media of its run before it (the run's media clock) */
  readonly start: number
  /** the run it belongs to: its media clock is read against the wall clock by that run's offset */
  readonly run: RunClock
  readonly parts: Array<Part>
  /** the init section its parts need */
  readonly init: string
  /** after a restart of the source: the player must reset its decoder */
  readonly discontinuity: boolean
  complete: boolean
}

/** Where the packager's objects go: the feed keeps them in its ring under these names. */
export interface PackagerStore {
  put(name: string, bytes: Buffer, type: string): void
  /** A segment is complete (for the time-shift window). */
  completed?(segment: CompletedSegment): void
}

/** A complete segment as the packager made it. */
export interface CompletedSegment {
  readonly sequence: number
  readonly name: string
  /** seconds */
  readonly duration: number
  /** epoch ms */
  readonly programDateTime: number
  readonly discontinuity: boolean
  /** the init section it needs, by name, and its bytes */
  readonly init: string
  readonly initBytes: Buffer
  readonly bytes: Buffer
}

export interface PackagerOptions {
  /** the first segment's sequence (one going on from the channel's time-shift window); the wall clock's seconds otherwise */
  readonly firstSequence?: number | undefined
}

/**
 * A run of the source (from one init section to the next) maps its media time to wall-clock time:
 * epoch ms = offset + media seconds × 1000. The offset is the least of (arrival − media end) over
 * its fragments, so a burst at the start (ffmpeg sends what it read while probing all at once)
 * does not make the media look newer than it is.
 */
interface RunClock {
  offset: number
  media: number
}

export class Packager {
  private readonly segments: Array<Segment> = []
  private init: string | undefined
  private initBytes: Buffer = Buffer.alloc(0)
  private generation = 0
  private nextSequence: number
  private discontinuities = 0
  private discontinuityPending = false
  private longestPart = 0
  private longestAny = 0
  private firstSegmentInit: string | undefined
  private firstSegmentSequence = -1
  private longestSegment = 0
  /** parts of the segment being built, as bytes, until it completes */
  private building: Array<Buffer> = []
  private current: RelayPlaylist | undefined
  private clock: RunClock | undefined
  private readonly channel: string
  /** names of this run of the feed: an edge that kept an earlier run's objects never mixes them up */
  private readonly run: string
  private readonly store: PackagerStore
  private readonly now: () => number

  constructor(channel: string, run: string, store: PackagerStore, now: () => number, options: PackagerOptions = {}) {
    this.channel = channel
    this.run = run
    this.store = store
    this.now = now
    // sequence numbers that keep going up across runs of the feed, whichever instance runs it
    this.nextSequence = options.firstSequence ?? Math.floor(now() / 1000)
  }

  /** The source started (again): a new init section; what follows starts after a discontinuity. */
  initSection(bytes: Buffer): void {
    this.generation += 1
    this.clock = undefined
    this.init = `${this.run}-init${this.generation}.mp4`
    this.firstSegmentInit = undefined
    this.store.put(this.init, bytes, "video/mp4")
    // the open segment ends with the init section it began with
    this.closeSegment()
    this.initBytes = bytes
    if (this.segments.length > 0) this.discontinuityPending = true
  }

  fragment(fragment: Fragment): void {
    const init = this.init
    if (init === undefined) return
    const arrived = this.now()
    const clock = this.clock ?? { offset: Number.POSITIVE_INFINITY, media: 0 }
    this.clock = clock
    const start = clock.media
    clock.media += fragment.duration
    clock.offset = Math.min(clock.offset, arrived - clock.media * 1000)
    let open = this.segments.at(-1)
    const openSeconds = open === undefined || open.complete ? 0 : open.parts.reduce((sum, part) => sum + part.duration, 0)
    // a little short of the aim still counts: 0.4 + 0.4 + 0.2 + … adds up to a hair under 2
    const long = openSeconds >= SEGMENT_SECONDS - 0.05
    if (open !== undefined && !open.complete && ((fragment.independent && long) || openSeconds >= MAX_SEGMENT_SECONDS)) {
      this.closeSegment()
    }
    open = this.segments.at(-1)
    if (open === undefined || open.complete) {
      if (this.firstSegmentInit !== init) {
        this.firstSegmentInit = init
        this.firstSegmentSequence = this.nextSequence
      }
      open = {
        sequence: this.nextSequence++,
        start,
        run: clock,
        parts: [],
        init,
        discontinuity: this.discontinuityPending,
        complete: false
      }
      this.discontinuityPending = false
      this.segments.push(open)
      this.trim()
    }
    const name = `${this.run}-${open.sequence}.${open.parts.length}.m4s`
    this.store.put(name, fragment.bytes, "video/iso.segment")
    this.building.push(fragment.bytes)
    open.parts.push({ name, duration: fragment.duration, independent: fragment.independent })
    // a source's first segment comes in a burst of odd lengths: the parts after it set the target
    if (open.init !== this.firstSegmentInit || open.sequence !== this.firstSegmentSequence)
      this.longestPart = Math.max(this.longestPart, fragment.duration)
    this.longestAny = Math.max(this.longestAny, fragment.duration)
    this.current = undefined
  }

  /** The source stopped: the open segment ends where it is. */
  end(): void {
    this.closeSegment()
  }

  /** The newest playlist, or undefined before the first whole segment (players want one to start from). */
  playlist(): RelayPlaylist | undefined {
    if (!this.segments.some((segment) => segment.complete)) return undefined
    this.current ??= this.write()
    return this.current
  }

  private closeSegment(): void {
    const open = this.segments.at(-1)
    if (open === undefined || open.complete) return
    if (open.parts.length === 0) {
      this.segments.pop()
      this.nextSequence -= 1
      return
    }
    open.complete = true
    const name = `${this.run}-${open.sequence}.m4s`
    const bytes = Buffer.concat(this.building)
    this.store.put(name, bytes, "video/iso.segment")
    this.building = []
    const duration = open.parts.reduce((sum, part) => sum + part.duration, 0)
    this.longestSegment = Math.max(this.longestSegment, duration)
    this.current = undefined
    this.store.completed?.({
      sequence: open.sequence,
      name,
      duration,
      programDateTime: Math.round(open.run.offset + open.start * 1000),
      discontinuity: open.discontinuity,
      init: open.init,
      initBytes: this.initBytes,
      bytes
    })
  }

  private trim(): void {
    while (this.segments.filter((segment) => segment.complete).length > WINDOW_SEGMENTS) {
      const dropped = this.segments.shift()
      if (dropped?.discontinuity === true) this.discontinuities += 1
    }
  }

  private write(): RelayPlaylist {
    const uri = (name: string) => `${localPath(this.channel, name, false)}?grant=${GRANT}`
    // the longest part, rounded up to a tenth of a second
    const partTarget = Math.ceil(Math.max(this.longestPart || this.longestAny, 0.1) * 10 - 1e-9) / 10
    // the spec's rule: every segment's duration, rounded to the nearest second, at most the target
    const targetDuration = Math.max(1, Math.round(this.longestSegment || SEGMENT_SECONDS))
    const first = this.segments[0] as Segment
    const lines = [
      "#EXTM3U",
      "#EXT-X-VERSION:9",
      `#EXT-X-TARGETDURATION:${targetDuration}`,
      `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${(3 * partTarget).toFixed(3)}`,
      `#EXT-X-PART-INF:PART-TARGET=${partTarget.toFixed(3)}`,
      `#EXT-X-MEDIA-SEQUENCE:${first.sequence}`,
      `#EXT-X-DISCONTINUITY-SEQUENCE:${this.discontinuities}`
    ]
    let init: string | undefined
    const complete = this.segments.filter((segment) => segment.complete)
    const withParts = new Set(complete.slice(-PART_SEGMENTS).map((segment) => segment.sequence))
    for (const segment of this.segments) {
      if (segment.discontinuity) lines.push("#EXT-X-DISCONTINUITY")
      if (segment.init !== init) {
        init = segment.init
        lines.push(`#EXT-X-MAP:URI="${uri(init)}"`)
      }
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(Math.round(segment.run.offset + segment.start * 1000)).toISOString()}`)
      if (!segment.complete || withParts.has(segment.sequence)) {
        for (const part of segment.parts) {
          lines.push(
            `#EXT-X-PART:DURATION=${part.duration.toFixed(3)},URI="${uri(part.name)}"${part.independent ? ",INDEPENDENT=YES" : ""}`
          )
        }
      }
      if (segment.complete) {
        lines.push(
          `#EXTINF:${segment.parts.reduce((sum, part) => sum + part.duration, 0).toFixed(3)},`,
          uri(`${this.run}-${segment.sequence}.m4s`)
        )
      }
    }
    const open = this.segments.at(-1) as Segment
    const edge = open.complete ? { sequence: open.sequence + 1, parts: 0 } : { sequence: open.sequence, parts: open.parts.length }
    lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(this.partName(edge.sequence, edge.parts))}"`)
    return {
      pieces: `${lines.join("\n")}\n`.split(GRANT),
      uris: new Map(),
      multivariant: false,
      targetDuration,
      partTarget,
      canBlockReload: true,
      endList: false,
      firstSequence: first.sequence,
      edge,
      discontinuitySequence: this.discontinuities
    }
  }

  /** The name a part will have, so a player may ask for it before it exists (the preload hint). */
  partName(sequence: number, part: number): string {
    return `${this.run}-${sequence}.${part}.m4s`
  }
}
