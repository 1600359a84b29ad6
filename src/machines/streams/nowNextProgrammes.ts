import { type EpgEntry, isAiring, type NowNext, progressOf } from "../../domain/Schedule.ts"

// What a stream's now/next answer means at a given instant, and when it next stops being true.

/** A reload never comes sooner than this after the last one, even when the answer was already stale. */
export const MIN_REFRESH_MS = 15_000
/** Nor later than this: a guide imported meanwhile shows up without a page load. */
export const MAX_REFRESH_MS = 30 * 60_000

export interface Programme {
  readonly title: string
  readonly subtitle: string
  /** ISO-8601 instants, as the guide gives them */
  readonly start: string
  readonly end: string
}

export interface OnNow extends Programme {
  /** how far it has run, 0–100, whole percent */
  readonly percent: number
}

export interface Programmes {
  readonly now: OnNow | null
  readonly next: Programme | null
}

const programmeOf = (entry: EpgEntry): Programme => ({
  title: entry.Title,
  subtitle: entry.Subtitle,
  start: entry.StartTime,
  end: entry.EndTime
})

/**
 * What airs at `at`, and what comes after it. The answer was right when it was loaded; between a
 * programme's end and the reload the next one already counts as on now, and an ended one is never
 * shown. Null when there is nothing to show.
 */
export const programmesAt = (entry: NowNext, at: number): Programmes | null => {
  const known = [entry.now, entry.next].filter((programme): programme is EpgEntry => programme !== null)
  const airing = known.find((programme) => isAiring(programme, at))
  const upcoming = known.find((programme) => Date.parse(programme.StartTime) > at)
  if (airing === undefined && upcoming === undefined) return null
  return {
    now: airing === undefined ? null : { ...programmeOf(airing), percent: Math.floor(progressOf(airing, at) * 100) },
    next: upcoming === undefined ? null : programmeOf(upcoming)
  }
}

/**
 * When to load again: at the earliest moment a shown programme ends or the next one starts, since
 * only then does the answer change. A boundary already past means the server answered before its
 * own clock got there, so it is asked again shortly rather than at once.
 */
export const refreshAtFor = (guide: ReadonlyArray<NowNext>, at: number): number =>
  Math.min(Math.max(Math.min(...boundariesOf(guide)), at + MIN_REFRESH_MS), at + MAX_REFRESH_MS)

/**
 * When what a card shows next changes without a reload: the first boundary of a known programme
 * after `at`. A reload may come later than that (the server answered before its own clock got
 * there), and an ended programme must not stay on screen until it does.
 */
export const nextChangeAfter = (guide: ReadonlyArray<NowNext>, at: number): number =>
  Math.min(...boundariesOf(guide).filter((boundary) => boundary > at))

const boundariesOf = (guide: ReadonlyArray<NowNext>): Array<number> =>
  guide
    .flatMap((entry) => [entry.now?.EndTime, entry.next?.StartTime, entry.next?.EndTime])
    .flatMap((time) => (time === undefined ? [] : [Date.parse(time)]))
    .filter(Number.isFinite)

const sameProgramme = (a: Programme | null, b: Programme | null): boolean =>
  a === b || (a !== null && b !== null && a.title === b.title && a.subtitle === b.subtitle && a.start === b.start && a.end === b.end)

/** For `useSelector`: a card re-renders only when what it shows changes, not on every tick. */
export const sameProgrammes = (a: Programmes | null, b: Programmes | null): boolean =>
  a === b || (a !== null && b !== null && sameProgramme(a.now, b.now) && a.now?.percent === b.now?.percent && sameProgramme(a.next, b.next))

const timeFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * A start time as the guide page writes it, in 12-hour format ("9:30 PM"), in the viewer's zone
 * unless one is given. ICU puts a narrow no-break space before AM/PM; a plain one reads and
 * searches the same everywhere, and the views keep the time on one line.
 */
export const clockTime = (iso: string, timeZone?: string): string => {
  const key = timeZone ?? ""
  let format = timeFormats.get(key)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      hour: "numeric",
      minute: "2-digit",
      hour12: true,
      ...(timeZone === undefined ? {} : { timeZone })
    })
    timeFormats.set(key, format)
  }
  return format.format(Date.parse(iso)).replace(/\s/g, " ")
}
