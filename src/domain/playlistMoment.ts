import type { StartSegment } from "./playlistStart.ts"

/** A segment of a media playlist holding a wall-clock moment, and where in the playlist that moment is. */
export interface MomentSegment extends StartSegment {
  /** seconds from the start of the playlist's first segment: the moment itself */
  readonly position: number
}

// A delta update lists only the newest segments: where they start in the whole window is not in it.
const SKIPPED = /^#EXT-X-SKIP\b/
const DATE = "#EXT-X-PROGRAM-DATE-TIME:"

/**
 * Where the wall-clock instant `at` (epoch ms) is in a media playlist, by its program date times
 * (a segment without one follows on from the one before): the segment that holds it and the
 * position, in seconds from the playlist's first segment, which is the player library's timeline
 * on a first load. Null when the playlist has no dates or `at` is not inside its segments.
 */
export const playlistMoment = (text: string, at: number): MomentSegment | null => {
  const lines = text.split(/\r?\n/).map((line) => line.trim())
  if (lines[0] !== "#EXTM3U" || !Number.isFinite(at)) return null
  let total = 0
  let pendingDuration: number | null = null
  let pendingDate: number | null = null
  // the wall clock at the end of the segment before, once a date has been seen
  let clock: number | null = null
  for (const line of lines) {
    if (line === "") continue
    if (SKIPPED.test(line)) return null
    if (line.startsWith(DATE)) {
      const date = Date.parse(line.slice(DATE.length))
      pendingDate = Number.isFinite(date) ? date : null
    } else if (line.startsWith("#EXTINF:")) pendingDuration = Number.parseFloat(line.slice(8))
    else if (!line.startsWith("#") && pendingDuration !== null) {
      const duration = pendingDuration
      if (!(duration >= 0)) return null
      const date: number | null = pendingDate ?? clock
      if (date !== null && at >= date && at < date + duration * 1000) {
        return { uri: line, start: total, duration, position: total + (at - date) / 1000 }
      }
      clock = date === null ? null : date + duration * 1000
      total += duration
      pendingDuration = null
      pendingDate = null
    }
  }
  return null
}
