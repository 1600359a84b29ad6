/**
 * The in-memory index of one channel's time-shift window (one media playlist of it): per segment a
 * few numbers and its name, in sequence order with no holes, so a playlist of the window is written
 * from it when asked and the media are found by name. What holds the bytes (files on disk, or the
 * owner instance) is someone else's business.
 */
import { randomBytes } from "node:crypto"

export interface WindowSegment {
  readonly sequence: number
  /** seconds */
  readonly duration: number
  /** seconds of window before it, since the index began: only differences of two are meaningful */
  readonly start: number
  /** epoch ms of its first frame */
  readonly programDateTime: number
  /** the feed restarted or had a gap just before it */
  readonly discontinuity: boolean
  /** its name under `/live/<channel>/m/`, the same as while it was live */
  readonly name: string
  /** the name of the init section it needs, if any */
  readonly map: string | undefined
  /** bytes held for it (0 until they are) */
  size: number
  /** its media could not be had: listed as a gap */
  gap: boolean
}

/** What is given of a segment to add. */
export type NewSegment = Pick<WindowSegment, "sequence" | "duration" | "programDateTime" | "discontinuity" | "name" | "map"> & {
  readonly size?: number
  readonly gap?: boolean
}

/** A jump forward in numbering of more than this many segments starts the index again rather than listing gaps. */
export const MAX_FILLED_GAP = 64

export class WindowIndex {
  private items: Array<WindowSegment> = []
  private head = 0
  private readonly names = new Map<string, WindowSegment>()
  /** how many segments have each whole number of seconds (rounded), for the target duration */
  private readonly rounded = new Map<number, number>()
  private nextStart = 0
  /** the discontinuity sequence of the first segment (each DISCONTINUITY dropped from the front adds one) */
  discontinuitySequence = 0
  /** bytes held for the segments listed */
  bytes = 0
  /** changes whenever the index starts again, so a copy of it knows to start again too */
  epoch = randomBytes(6).toString("base64url")
  /** moves with every change, so what was written from the index knows when it is out of date */
  version = 0

  get size(): number {
    return this.items.length - this.head
  }

  /** the first segment's sequence, or undefined when empty */
  get first(): number | undefined {
    return this.items[this.head]?.sequence
  }

  /** the sequence the next segment takes, or undefined when empty */
  get next(): number | undefined {
    const last = this.items.at(-1)
    return this.size === 0 || last === undefined ? undefined : last.sequence + 1
  }

  oldest(): WindowSegment | undefined {
    return this.items[this.head]
  }

  newest(): WindowSegment | undefined {
    return this.size === 0 ? undefined : this.items.at(-1)
  }

  at(sequence: number): WindowSegment | undefined {
    const first = this.first
    if (first === undefined || sequence < first) return undefined
    return this.items[this.head + (sequence - first)]
  }

  byName(name: string): WindowSegment | undefined {
    return this.names.get(name)
  }

  /** The longest segment, rounded to whole seconds as a playlist's target duration counts it. */
  longestRounded(): number {
    let longest = 0
    for (const [seconds, count] of this.rounded) if (count > 0 && seconds > longest) longest = seconds
    return longest
  }

  /** The segments from `from` (inclusive) to `to` (exclusive), in order. */
  *range(from: number, to: number): Generator<WindowSegment> {
    const first = this.first
    if (first === undefined) return
    const start = this.head + Math.max(0, from - first)
    const end = Math.min(this.items.length, this.head + (to - first))
    for (let i = start; i < end; i += 1) yield this.items[i] as WindowSegment
  }

  /** The first sequence in [from, to) whose segment starts at `start` seconds or later (`to` when none does). */
  firstStartingAt(start: number, from: number, to: number): number {
    const first = this.first
    if (first === undefined) return to
    let low = Math.max(from, first)
    let high = Math.min(to, this.next ?? first)
    while (low < high) {
      const middle = Math.floor((low + high) / 2)
      if ((this.at(middle) as WindowSegment).start < start) low = middle + 1
      else high = middle
    }
    return low
  }

  /**
   * Adds the segment after the last (any sequence when empty). A segment numbered past the next
   * is preceded by gaps (its media were never had), or starts the index again when that would be
   * too many; one numbered before the next is refused (undefined).
   */
  append(segment: NewSegment): WindowSegment | undefined {
    const next = this.next
    if (next !== undefined && segment.sequence < next) return undefined
    if (next !== undefined && segment.sequence - next > MAX_FILLED_GAP) this.clear()
    const after = this.next
    if (after !== undefined) {
      const previous = this.newest() as WindowSegment
      for (let sequence = after; sequence < segment.sequence; sequence += 1) {
        const duration = previous.duration
        this.push({
          sequence,
          duration,
          programDateTime: previous.programDateTime + (sequence - previous.sequence) * duration * 1000,
          discontinuity: false,
          name: `gap-${this.epoch}-${sequence}`,
          map: previous.map,
          gap: true
        })
      }
    }
    return this.push(segment)
  }

  private push(segment: NewSegment): WindowSegment {
    const entry: WindowSegment = {
      sequence: segment.sequence,
      duration: segment.duration,
      start: this.nextStart,
      programDateTime: segment.programDateTime,
      discontinuity: segment.discontinuity,
      name: segment.name,
      map: segment.map,
      size: segment.size ?? 0,
      gap: segment.gap ?? false
    }
    this.nextStart += segment.duration
    this.version += 1
    this.items.push(entry)
    this.names.set(entry.name, entry)
    this.bytes += entry.size
    const seconds = Math.round(entry.duration)
    this.rounded.set(seconds, (this.rounded.get(seconds) ?? 0) + 1)
    return entry
  }

  /** A segment whose media could not be had: listed as a gap from now on. */
  markGap(segment: WindowSegment): void {
    if (this.names.get(segment.name) !== segment || segment.gap) return
    segment.gap = true
    this.version += 1
  }

  /** Counts bytes now held for a segment (its media arrived). */
  held(segment: WindowSegment, size: number): void {
    if (this.names.get(segment.name) !== segment) return
    this.bytes += size - segment.size
    segment.size = size
  }

  /** Drops the oldest segment. */
  shift(): WindowSegment | undefined {
    const dropped = this.items[this.head]
    if (dropped === undefined) return undefined
    this.items[this.head] = undefined as unknown as WindowSegment
    this.head += 1
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    this.names.delete(dropped.name)
    this.version += 1
    this.bytes -= dropped.size
    const seconds = Math.round(dropped.duration)
    this.rounded.set(seconds, (this.rounded.get(seconds) ?? 1) - 1)
    // the segment that carried the tag has left: the next one's number counts it
    if (dropped.discontinuity) this.discontinuitySequence += 1
    if (this.size === 0) this.clear()
    return dropped
  }

  /** Forgets every segment; what comes next starts a new index (a new epoch). */
  clear(): Array<WindowSegment> {
    const dropped = this.items.slice(this.head)
    this.items = []
    this.head = 0
    this.names.clear()
    this.rounded.clear()
    this.bytes = 0
    this.discontinuitySequence = 0
    this.nextStart = 0
    this.version += 1
    this.epoch = randomBytes(6).toString("base64url")
    return dropped
  }
}
