import type { EpgEntry } from "./Schedule.ts"

// Time-shift: every channel keeps its last `timeshiftHours` (a site setting) so a viewer who
// arrives late can start the programme from its beginning or seek back through the window.

/** The site setting's default and its upper bound, in hours. */
export const DEFAULT_TIMESHIFT_HOURS = 4
export const MAX_TIMESHIFT_HOURS = 48

/** A programme that began longer ago than this offers to start from its beginning. */
export const START_OVER_AFTER_MS = 3 * 60_000

export const HOUR_MS = 3_600_000

/** The oldest instant a channel still holds, `now` minus the window. */
export const windowStartOf = (now: number, timeshiftHours: number): number => now - Math.max(0, timeshiftHours) * HOUR_MS

/** Whether a programme's start can still be played from: it began inside the window and has begun. */
export const canStartOver = (entry: Pick<EpgEntry, "StartTime" | "EndTime">, now: number, timeshiftHours: number): boolean => {
  const start = Date.parse(entry.StartTime)
  return timeshiftHours > 0 && Number.isFinite(start) && start <= now && start >= windowStartOf(now, timeshiftHours)
}

/** Whether opening the channel now should ask "from the beginning or live?". */
export const offersStartOver = (entry: Pick<EpgEntry, "StartTime" | "EndTime">, now: number, timeshiftHours: number): boolean =>
  canStartOver(entry, now, timeshiftHours) && now - Date.parse(entry.StartTime) > START_OVER_AFTER_MS && now < Date.parse(entry.EndTime)

/**
 * The player page's parameters beyond SPEC's `default`: `stream` names a stream by its id (a link
 * in a mail or the guide stays right when the grid's order changes) and `from` an ISO instant to
 * start playing at (a programme's start), played live when it is outside the window.
 */
export interface PlayerStart {
  readonly streamId?: number
  /** epoch ms */
  readonly from?: number
}

export const readPlayerStart = (search: string): PlayerStart => {
  const query = new URLSearchParams(search)
  const stream = query.get("stream")
  const from = query.get("from")
  const streamId = stream !== null && /^[1-9]\d{0,9}$/.test(stream) ? Number(stream) : undefined
  const at = from !== null && /^\d{4}-\d{2}-\d{2}T/.test(from) ? Date.parse(from) : Number.NaN
  return {
    ...(streamId === undefined ? {} : { streamId }),
    ...(Number.isFinite(at) ? { from: at } : {})
  }
}

/** `?stream=ID&from=ISO` for a player page (path `/player` or `/playersldp`). */
export const startOverSearch = (streamId: number, from?: string | number): string => {
  const query = new URLSearchParams({ stream: String(streamId) })
  if (from !== undefined) query.set("from", new Date(from).toISOString())
  return `?${query.toString()}`
}
