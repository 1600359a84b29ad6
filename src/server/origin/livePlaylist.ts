/**
 * A finite loop of segments replayed as an endless live HLS stream. Global media sequence `s`
 * plays loop file `s % loop length` in loop iteration `floor(s / loop length)`, so a sequence
 * number always names the same bytes and every client sees the same timeline.
 */

export interface LiveSegment {
  /** file name inside the channel directory */
  readonly file: string
  /** seconds */
  readonly duration: number
}

export interface LiveClock {
  readonly segments: ReadonlyArray<LiveSegment>
  /** epoch ms at which the live edge reaches the end of sequence `windowSize - 1` */
  readonly startedAt: number
  /** epoch ms */
  readonly now: number
  /** how many published segments the playlist lists */
  readonly windowSize: number
  /**
   * The time-shift window in ms: the playlist then lists every segment of the last `dvrMs` too
   * (at least `windowSize`), as a live DVR range. Absent or 0 for the short live list.
   */
  readonly dvrMs?: number
}

export interface LiveWindow {
  /** media sequence of the first listed segment */
  readonly firstSequence: number
  /** one past the newest published segment; sequences at or above it are not out yet */
  readonly endSequence: number
  readonly discontinuitySequence: number
  /** epoch ms at which `firstSequence` starts */
  readonly firstStartsAt: number
}

interface Timeline {
  readonly durationsMs: ReadonlyArray<number>
  /** offset of each loop file from the start of its loop */
  readonly startsMs: ReadonlyArray<number>
  readonly loopMs: number
}

// A channel's segments never change once loaded: each request for one of its playlists or
// segments works with the timeline made the first time.
const timelines = new WeakMap<ReadonlyArray<LiveSegment>, Timeline>()

const timeline = (segments: ReadonlyArray<LiveSegment>): Timeline => {
  let line = timelines.get(segments)
  if (line === undefined) {
    line = makeTimeline(segments)
    timelines.set(segments, line)
  }
  return line
}

// Whole milliseconds keep the arithmetic exact over billions of segments.
const makeTimeline = (segments: ReadonlyArray<LiveSegment>): Timeline => {
  if (segments.length === 0) throw new Error("a live loop needs at least one segment")
  const durationsMs = segments.map((segment) => {
    const ms = Math.round(segment.duration * 1000)
    if (!Number.isFinite(ms) || ms <= 0) throw new Error(`bad duration for ${segment.file}`)
    return ms
  })
  const startsMs: Array<number> = []
  let loopMs = 0
  for (const ms of durationsMs) {
    startsMs.push(loopMs)
    loopMs += ms
  }
  return { durationsMs, startsMs, loopMs }
}

const at = (values: ReadonlyArray<number>, index: number): number => values[index] ?? 0

/** Offset of sequence `s` from the start of sequence 0. */
const offsetOf = (line: Timeline, sequence: number): number => {
  const length = line.durationsMs.length
  return Math.floor(sequence / length) * line.loopMs + at(line.startsMs, sequence % length)
}

/** How many sequences have fully ended `elapsed` ms after sequence 0 started. */
const endedBy = (line: Timeline, elapsed: number): number => {
  const loops = Math.floor(elapsed / line.loopMs)
  const rest = elapsed - loops * line.loopMs
  let within = 0
  while (within < line.durationsMs.length && at(line.startsMs, within) + at(line.durationsMs, within) <= rest) {
    within += 1
  }
  return loops * line.durationsMs.length + within
}

/**
 * The discontinuity sequence restarts from 0 after this many loops (33 hours of 12 s loops).
 * hls.js keeps per-discontinuity state in a sparse array indexed by this number and walks it
 * from 0 on every playlist update: counting the ~10^8 loops since 1970 would freeze its main
 * thread for seconds each time. A player that sees the count go back keeps its own numbering
 * going (hls.js re-bases it on the segments both playlists share).
 */
export const DISCONTINUITY_WRAP = 10_000

export const loopFileIndex = (loopLength: number, sequence: number): number => sequence % loopLength

// The virtual clock starts one window before `startedAt`, so a freshly started origin
// already has a full window and a player joining then has something to buffer.
const epochOf = (clock: LiveClock, line: Timeline): number => {
  const { windowSize } = clock
  if (!Number.isInteger(windowSize) || windowSize < 1) throw new Error("windowSize must be a positive integer")
  return clock.startedAt - offsetOf(line, windowSize)
}

/** Epoch ms at which sequence `sequence` starts on the live timeline. */
export const sequenceStartsAt = (clock: LiveClock, sequence: number): number => {
  const line = timeline(clock.segments)
  return epochOf(clock, line) + offsetOf(line, sequence)
}

export const liveWindow = (clock: LiveClock): LiveWindow => {
  const { windowSize } = clock
  const line = timeline(clock.segments)
  const epoch = epochOf(clock, line)
  const elapsed = Math.max(clock.now, clock.startedAt) - epoch
  const endSequence = endedBy(line, elapsed)
  const dvrMs = clock.dvrMs ?? 0
  // the first segment still playing at the window's start, so the window's first moment is listed
  const firstSequence = Math.max(
    0,
    Math.min(endSequence - windowSize, dvrMs > 0 ? endedBy(line, Math.max(0, elapsed - dvrMs)) : Number.POSITIVE_INFINITY)
  )
  const length = line.durationsMs.length
  // A loop wrap's discontinuity is counted once the segment carrying the tag has left the list.
  const loopsDone = firstSequence > 0 ? Math.floor((firstSequence - 1) / length) : 0
  const discontinuitySequence = loopsDone % DISCONTINUITY_WRAP
  return { firstSequence, endSequence, discontinuitySequence, firstStartsAt: epoch + offsetOf(line, firstSequence) }
}

/**
 * Whether a segment may be fetched: out already, and not older than the listed window (a player
 * holding a playlist from a moment ago may still ask for the segment that has just left it).
 */
export const isPublished = (clock: LiveClock, sequence: number): boolean => {
  if (!Number.isSafeInteger(sequence) || sequence < 0) return false
  const live = liveWindow(clock)
  return sequence < live.endSequence && ((clock.dvrMs ?? 0) === 0 || sequence >= live.firstSequence - clock.windowSize)
}

export const segmentUri = (sequence: number): string => `seg/${sequence}.ts`

/** Inverse of `segmentUri` for the last path component; undefined when it is not one. */
export const parseSegmentName = (name: string): number | undefined => {
  const match = /^(0|[1-9][0-9]{0,15})\.ts$/.exec(name)
  if (match === null) return undefined
  const sequence = Number(match[1])
  return Number.isSafeInteger(sequence) ? sequence : undefined
}

/** Whole seconds for `#EXT-X-TARGETDURATION`. */
export const targetDurationOf = (segments: ReadonlyArray<LiveSegment>): number =>
  // Ceil of the longest loop file, not of the window, so the value never changes between reloads.
  Math.ceil(Math.max(...timeline(segments).durationsMs) / 1000)

/**
 * How far back from its end a time-shift playlist must list segments in a delta update
 * (`CAN-SKIP-UNTIL`, at least six target durations by the spec): a player that reloads more
 * often than every half of it (hls.js asks for a delta only then) gets a few kilobytes instead
 * of the whole window.
 */
export const skipUntilSecondsOf = (segments: ReadonlyArray<LiveSegment>): number => Math.max(60, 6 * targetDurationOf(segments))

/**
 * The live playlist. With a time-shift window (`dvrMs`) it is a DVR range: it offers delta
 * updates, and `skip` answers one (`_HLS_skip=YES`), the segments older than `CAN-SKIP-UNTIL`
 * replaced by `#EXT-X-SKIP`. Every loop wrap is a discontinuity and carries its program date time,
 * so a player maps any moment of the window to the wall clock.
 */
export const livePlaylist = (clock: LiveClock, skip = false): string => {
  const line = timeline(clock.segments)
  const live = liveWindow(clock)
  const length = line.durationsMs.length
  const targetDuration = targetDurationOf(clock.segments)
  const dvr = (clock.dvrMs ?? 0) > 0
  const skipUntil = skipUntilSecondsOf(clock.segments)
  const epoch = live.firstStartsAt - offsetOf(line, live.firstSequence)
  // segments starting before this are left out of a delta update
  const keepFrom = epoch + offsetOf(line, live.endSequence) - skipUntil * 1000
  let firstListed = live.firstSequence
  if (dvr && skip) {
    while (firstListed < live.endSequence - 1 && epoch + offsetOf(line, firstListed) < keepFrom) firstListed += 1
  }
  const lines = [
    "#EXTM3U",
    `#EXT-X-VERSION:${dvr ? 9 : 3}`,
    `#EXT-X-TARGETDURATION:${targetDuration}`,
    ...(dvr ? [`#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=${skipUntil.toFixed(1)}`] : []),
    `#EXT-X-MEDIA-SEQUENCE:${live.firstSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${live.discontinuitySequence}`,
    "#EXT-X-INDEPENDENT-SEGMENTS"
  ]
  if (firstListed > live.firstSequence) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${firstListed - live.firstSequence}`)
  for (let sequence = firstListed; sequence < live.endSequence; sequence += 1) {
    const index = loopFileIndex(length, sequence)
    const wraps = index === 0 && sequence > 0
    if (wraps) lines.push("#EXT-X-DISCONTINUITY")
    if (sequence === firstListed || (dvr && wraps)) {
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(epoch + offsetOf(line, sequence)).toISOString()}`)
    }
    lines.push(`#EXTINF:${(at(line.durationsMs, index) / 1000).toFixed(3)},`, segmentUri(sequence))
  }
  return `${lines.join("\n")}\n`
}
