/**
 * The time-shift window on an instance that does not run the channel's feed: it keeps a copy of the
 * owner's index (a few numbers per segment, fetched as it grows over the owner's signed internal
 * paths), writes the window's playlists from it as the owner would, and fetches old segments from
 * the owner once however many viewers ask, keeping the most recent few.
 */
import { LRUCache } from "lru-cache"
import type { RelayPlaylist } from "./relayPlaylist.ts"
import type { RingEntry } from "./relayRing.ts"
import { fetchUpstream, mediaType } from "./relayUpstream.ts"
import { WindowIndex } from "./timeshiftIndex.ts"

/** A window's index as the owner sends it: from a sequence on, or all of it when the copy is of another epoch. */
export interface WindowCopy {
  readonly epoch: string
  readonly first: number | null
  readonly discontinuitySequence: number
  /** sequence, duration, program date time, discontinuity (1/0), gap (1/0), name, init section */
  readonly segments: ReadonlyArray<readonly [number, number, number, number, number, string, string | null]>
}

/** What the owner sends of its index to a peer whose copy ends before `from` (and is of `epoch`). */
export function windowCopyOf(index: WindowIndex, from: number, epoch: string | undefined): WindowCopy {
  const first = index.first ?? null
  const start = epoch === index.epoch ? Math.max(from, first ?? from) : (first ?? 0)
  const segments: Array<WindowCopy["segments"][number]> = []
  for (const segment of index.range(start, index.next ?? start)) {
    segments.push([
      segment.sequence,
      segment.duration,
      segment.programDateTime,
      segment.discontinuity ? 1 : 0,
      segment.gap ? 1 : 0,
      segment.name,
      segment.map ?? null
    ])
  }
  return { epoch: index.epoch, first, discontinuitySequence: index.discontinuitySequence, segments }
}

/** Where an owner serves its window's index to the other instances. */
export const windowPath = (channel: string, track: string): string => `/internal/relay/${channel}/window/${track}`

// a copy younger than this is used as it is, unless it does not reach the live playlist
const FRESH_MS = 1000
const SHORT_MS = 200
const COPY_TIMEOUT_MS = 10_000
const MAX_MEDIA_BYTES = 64 * 1024 * 1024
// the old segments a peer keeps per channel, for the viewers who seek to the same moment (an edge
// cache in front keeps more)
const CACHE_BYTES = 8 * 1024 * 1024

interface Copy {
  readonly index: WindowIndex
  /** the owner's epoch this copy follows */
  epoch: string | undefined
  at: number
  refreshing: Promise<void> | undefined
  /** the init sections its segments name (a few per feed run) */
  readonly maps: Set<string>
}

export class PeerWindows {
  private readonly copies = new Map<string, Copy>()
  private readonly inFlight = new Map<string, Promise<RingEntry | undefined>>()
  private readonly cache = new LRUCache<string, RingEntry>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (entry) => Math.max(1, entry.body.length)
  })
  private readonly channel: string
  private readonly owner: () => string
  private readonly headers: () => ReadonlyArray<readonly [string, string]>

  /** `owner`: any address of the owner instance (its playlist's); `headers`: what lets it serve us. */
  constructor(channel: string, owner: () => string, headers: () => ReadonlyArray<readonly [string, string]>) {
    this.channel = channel
    this.owner = owner
    this.headers = headers
  }

  /** The copy of a track's index, fresh enough to write the window in front of `live`; undefined when the owner has none. */
  async view(track: string, live: RelayPlaylist): Promise<WindowIndex | undefined> {
    let copy = this.copies.get(track)
    if (copy === undefined) {
      copy = { index: new WindowIndex(), epoch: undefined, at: 0, refreshing: undefined, maps: new Set() }
      this.copies.set(track, copy)
    }
    // a copy that stops short of the live playlist is brought up to date at once (at most every few hundred ms)
    const reaches = (copy.index.next ?? Number.NEGATIVE_INFINITY) >= live.firstSequence + 1
    const age = performance.now() - copy.at
    if (age > FRESH_MS || (!reaches && age > SHORT_MS)) await this.refresh(track, copy)
    return copy.index.size === 0 ? undefined : copy.index
  }

  /** Whether a name is a segment or init section of the owner's window, as far as the copies know. */
  holds(name: string): boolean {
    for (const copy of this.copies.values()) {
      const segment = copy.index.byName(name)
      if (segment !== undefined) return !segment.gap
      if (copy.maps.has(name)) return true
    }
    return false
  }

  /** An old segment or init section, from the owner (once for every viewer asking at the same time). */
  media(name: string): Promise<RingEntry | undefined> {
    const kept = this.cache.get(name)
    if (kept !== undefined) return Promise.resolve(kept)
    let pending = this.inFlight.get(name)
    if (pending === undefined) {
      pending = this.fetchMedia(name).finally(() => this.inFlight.delete(name))
      this.inFlight.set(name, pending)
    }
    return pending
  }

  private async fetchMedia(name: string): Promise<RingEntry | undefined> {
    const url = new URL(`/internal/relay/${this.channel}/m/${name}`, this.owner()).href
    try {
      const answer = await fetchUpstream({ url, headers: this.headers(), maxBytes: MAX_MEDIA_BYTES, timeoutMs: 20_000 })
      const entry: RingEntry = { body: answer.body, contentType: mediaType(answer.contentType, url) }
      this.cache.set(name, entry)
      return entry
    } catch {
      return undefined
    }
  }

  private refresh(track: string, copy: Copy): Promise<void> {
    copy.refreshing ??= (async () => {
      try {
        const from = copy.index.next ?? 0
        const url = new URL(windowPath(this.channel, track), this.owner())
        url.searchParams.set("from", String(from))
        if (copy.epoch !== undefined) url.searchParams.set("epoch", copy.epoch)
        const answer = await fetchUpstream({
          url: url.href,
          headers: this.headers(),
          maxBytes: 16 * 1024 * 1024,
          timeoutMs: COPY_TIMEOUT_MS
        })
        take(copy, JSON.parse(answer.body.toString("utf8")) as WindowCopy)
        copy.at = performance.now()
      } catch {
        // the owner is away or has no window: the live playlist goes out as it is (and it is asked again in a while)
        copy.index.clear()
        copy.epoch = undefined
        copy.at = performance.now()
      } finally {
        copy.refreshing = undefined
      }
    })()
    return copy.refreshing
  }
}

/** Brings a copy up to what the owner sent. */
function take(copy: Copy, sent: WindowCopy): void {
  const { index } = copy
  if (sent.epoch !== copy.epoch || sent.first === null) {
    index.clear()
    copy.maps.clear()
    copy.epoch = sent.epoch
  }
  if (sent.first === null) return
  while (index.size > 0 && (index.first as number) < sent.first) index.shift()
  for (const [sequence, duration, programDateTime, discontinuity, gap, name, map] of sent.segments) {
    if (sequence < (index.next ?? Number.NEGATIVE_INFINITY)) continue
    index.append({ sequence, duration, programDateTime, discontinuity: discontinuity === 1, gap: gap === 1, name, map: map ?? undefined })
    if (map !== null) copy.maps.add(map)
  }
  index.discontinuitySequence = sent.discontinuitySequence
}
