import type { MediaTiming } from "../../domain/MediaProtocol.ts"
import type { EpgEntry } from "../../domain/Schedule.ts"
import { behindLive, isSeekable } from "./playerTiming.ts"

// The TV player's seek bar as the guide sees it: the time-shift window in wall-clock time, the
// programmes inside it, and the one on screen. Pure: the views read it through the selectors.

/** Within this much of a programme's start, "back to the start" means the programme before. */
export const PROGRAMME_START_SLACK_MS = 5000

export interface DvrProgramme {
  readonly title: string
  readonly subtitle: string
  /** epoch ms */
  readonly start: number
  readonly end: number
  /** where it begins and ends along the seek bar, 0–100 (cut to the window) */
  readonly from: number
  readonly to: number
  /** its start is inside the window: it can be played from the beginning */
  readonly startsInside: boolean
}

export interface DvrTimeline {
  /** epoch ms of the window's start and its live end */
  readonly start: number
  readonly end: number
  /** epoch ms of the moment on screen */
  readonly at: number
  /** how far the moment on screen is behind live, ms */
  readonly behindMs: number
  readonly programmes: ReadonlyArray<DvrProgramme>
  /** the programme on screen, if the guide has one there */
  readonly current: DvrProgramme | null
}

const percent = (value: number, start: number, end: number): number =>
  end > start ? Math.min(100, Math.max(0, ((value - start) / (end - start)) * 100)) : 0

/**
 * The window in wall-clock time with its programmes; null while it cannot be sought in (too
 * short, not live) or its playlist carries no dates.
 */
export const dvrTimeline = (timing: MediaTiming | null, entries: ReadonlyArray<EpgEntry>): DvrTimeline | null => {
  if (timing === null || timing.epoch === undefined || !timing.live || !isSeekable(timing)) return null
  const start = timing.epoch + timing.start * 1000
  const end = timing.epoch + timing.end * 1000
  const at = timing.epoch + Math.min(Math.max(timing.currentTime, timing.start), timing.end) * 1000
  const programmes = entries
    .map((entry) => ({ entry, from: Date.parse(entry.StartTime), to: Date.parse(entry.EndTime) }))
    .filter(({ from, to }) => Number.isFinite(from) && Number.isFinite(to) && from < end && to > start)
    .map(
      ({ entry, from, to }): DvrProgramme => ({
        title: entry.Title,
        subtitle: entry.Subtitle,
        start: from,
        end: to,
        from: percent(from, start, end),
        to: percent(to, start, end),
        startsInside: from >= start
      })
    )
  const current = programmes.find((programme) => programme.start <= at && at < programme.end) ?? null
  return { start, end, at, behindMs: Math.round(behindLive(timing) * 1000), programmes, current }
}

/**
 * Where "back to the start of the programme" goes: the start of the one on screen, or of the one
 * before when that start is just behind (pressed twice, it goes on back). Null when neither
 * starts inside the window.
 */
export const previousStart = (timeline: DvrTimeline | null): number | null => {
  if (timeline === null) return null
  const starts = timeline.programmes.filter((programme) => programme.startsInside).map((programme) => programme.start)
  const before = starts.filter((start) => start <= timeline.at - PROGRAMME_START_SLACK_MS)
  return before.at(-1) ?? null
}

/** The start of the next programme inside the window; null when the one on screen is the last (live is next). */
export const nextStart = (timeline: DvrTimeline | null): number | null =>
  timeline?.programmes.find((programme) => programme.start > timeline.at + 1000 && programme.start < timeline.end)?.start ?? null

/** The wall clock of the moment on screen (epoch ms), once the playlist has dates; null before or without. */
export const momentOnScreen = (timing: MediaTiming | null): number | null =>
  timing === null || timing.epoch === undefined ? null : timing.epoch + timing.currentTime * 1000
