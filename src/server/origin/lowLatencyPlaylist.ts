/**
 * The Low-Latency HLS view of the same endless loop as `livePlaylist`: identical media sequences,
 * discontinuities and program date-times, plus the parts of the newest segments, the parts of the
 * segment still being "encoded", and a preload hint for the part after them.
 */
import {
  type LiveClock,
  type LiveSegment,
  liveWindow,
  loopFileIndex,
  segmentUri,
  sequenceStartsAt,
  targetDurationOf
} from "./livePlaylist.ts"

export interface LivePart {
  /** seconds */
  readonly duration: number
}

export interface LowLatencySegment extends LiveSegment {
  readonly parts: ReadonlyArray<LivePart>
}

export interface LowLatencyClock extends LiveClock {
  readonly segments: ReadonlyArray<LowLatencySegment>
}

export interface LiveEdge {
  /** the segment being produced: one past the newest complete segment */
  readonly sequence: number
  /** how many of its parts are published; the next one is the preload hint */
  readonly parts: number
}

/**
 * Complete segments that keep listing their parts. The spec wants parts kept for at least three
 * target durations from the playlist end, which three whole segments always cover.
 */
export const PART_SEGMENTS = 3

const ms = (seconds: number): number => Math.round(seconds * 1000)

// Seconds as short as they can be written: 0.4, 1.2, 6.
const decimal = (millis: number): string => String(millis / 1000)

const segmentAt = (clock: LowLatencyClock, sequence: number): LowLatencySegment => {
  const segment = clock.segments[loopFileIndex(clock.segments.length, sequence)]
  if (segment === undefined || segment.parts.length === 0) throw new Error("every segment needs parts")
  return segment
}

/** End of each part, in ms from its segment's start; the last one is the segment's own end. */
const partEnds = (segment: LowLatencySegment): Array<number> => {
  const ends: Array<number> = []
  let end = 0
  for (const part of segment.parts) {
    const duration = ms(part.duration)
    if (!(duration > 0)) throw new Error(`bad part duration in ${segment.file}`)
    end += duration
    ends.push(end)
  }
  ends[ends.length - 1] = ms(segment.duration)
  return ends
}

export const partCount = (clock: LowLatencyClock, sequence: number): number => segmentAt(clock, sequence).parts.length

/** Epoch ms at which a part is complete and may be listed; past-the-end parts clamp to the segment end. */
export const partEndsAt = (clock: LowLatencyClock, sequence: number, part: number): number => {
  const ends = partEnds(segmentAt(clock, sequence))
  return sequenceStartsAt(clock, sequence) + (ends[Math.min(part, ends.length - 1)] ?? 0)
}

// The live window is frozen at `startedAt` before it, so part publication must be too.
const effectiveNow = (clock: LiveClock): number => Math.max(clock.now, clock.startedAt)

export const liveEdge = (clock: LowLatencyClock): LiveEdge => {
  const sequence = liveWindow(clock).endSequence
  const elapsed = effectiveNow(clock) - sequenceStartsAt(clock, sequence)
  return { sequence, parts: partEnds(segmentAt(clock, sequence)).filter((end) => end <= elapsed).length }
}

export const isPartPublished = (clock: LowLatencyClock, sequence: number, part: number): boolean =>
  Number.isSafeInteger(sequence) &&
  sequence >= 0 &&
  Number.isInteger(part) &&
  part >= 0 &&
  part < partCount(clock, sequence) &&
  partEndsAt(clock, sequence, part) <= effectiveNow(clock)

/** Seconds for `PART-TARGET`: the longest part of the loop. */
export const partTargetOf = (segments: ReadonlyArray<LowLatencySegment>): number =>
  Math.max(...segments.flatMap((segment) => segment.parts.map((part) => ms(part.duration)))) / 1000

export const partUri = (sequence: number, part: number): string => `part/${sequence}.${part}.ts`

/** Inverse of `partUri` for the last path component; undefined when it is not one. */
export const parsePartName = (name: string): { sequence: number; part: number } | undefined => {
  const match = /^(0|[1-9][0-9]{0,15})\.(0|[1-9][0-9]{0,3})\.ts$/.exec(name)
  if (match === null) return undefined
  const sequence = Number(match[1])
  return Number.isSafeInteger(sequence) ? { sequence, part: Number(match[2]) } : undefined
}

export const lowLatencyPlaylist = (clock: LowLatencyClock): string => {
  const live = liveWindow(clock)
  const edge = liveEdge(clock)
  const length = clock.segments.length
  const targetDuration = targetDurationOf(clock.segments)
  const partTargetMs = ms(partTargetOf(clock.segments))
  const lines = [
    "#EXTM3U",
    "#EXT-X-VERSION:9",
    `#EXT-X-TARGETDURATION:${targetDuration}`,
    // Hold-backs at the spec's recommended minimums: 3 parts and 3 target durations.
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${decimal(3 * partTargetMs)},HOLD-BACK=${decimal(3000 * targetDuration)}`,
    `#EXT-X-PART-INF:PART-TARGET=${decimal(partTargetMs)}`,
    `#EXT-X-MEDIA-SEQUENCE:${live.firstSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${live.discontinuitySequence}`,
    "#EXT-X-INDEPENDENT-SEGMENTS"
  ]
  const pushParts = (sequence: number, count: number) => {
    const segment = segmentAt(clock, sequence)
    for (let part = 0; part < count; part += 1) {
      const duration = ms(segment.parts[part]?.duration ?? 0)
      // Every part opens on an IDR with PAT/PMT (checked when the media is made).
      lines.push(`#EXT-X-PART:DURATION=${decimal(duration)},URI="${partUri(sequence, part)}",INDEPENDENT=YES`)
    }
  }
  for (let sequence = live.firstSequence; sequence <= edge.sequence; sequence += 1) {
    const index = loopFileIndex(length, sequence)
    // Also before a loop start whose first part is still only hinted: the tag belongs to it.
    if (index === 0 && sequence > 0) lines.push("#EXT-X-DISCONTINUITY")
    if (sequence === live.firstSequence) {
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(live.firstStartsAt).toISOString()}`)
    }
    if (sequence === edge.sequence) {
      pushParts(sequence, edge.parts)
      break
    }
    if (sequence >= edge.sequence - PART_SEGMENTS) pushParts(sequence, partCount(clock, sequence))
    lines.push(`#EXTINF:${(ms(segmentAt(clock, sequence).duration) / 1000).toFixed(3)},`, segmentUri(sequence))
  }
  lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${partUri(edge.sequence, edge.parts)}"`)
  return `${lines.join("\n")}\n`
}
