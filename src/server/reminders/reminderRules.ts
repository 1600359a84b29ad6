import { type Reminder, remindAtOf } from "../../domain/Reminder.ts"
import type { Timestamp } from "../db/schema.ts"
import type { ProgrammeOnStream, ReminderRow } from "./remindersRepo.ts"

const HOUR_MS = 3_600_000

/**
 * How far a programme may move and still be the one reminded of: a match put back or brought
 * forward by a few hours is the same match; the same title half a day away is another airing.
 */
export const MOVE_WINDOW_MS = 12 * HOUR_MS

const iso = (ms: number): Timestamp => new Date(ms).toISOString()

/** The programme's start as the guide keeps it (`…T20:00:00.000Z`), from any ISO instant. */
export const storedInstant = (text: string): Timestamp => new Date(text).toISOString()

/** Where a reminder's programme may have moved to: same channel and title, starting within the window. */
export const moveSearchRange = (startAt: Timestamp): { readonly from: Timestamp; readonly to: Timestamp } => {
  const start = Date.parse(startAt)
  return { from: iso(start - MOVE_WINDOW_MS), to: iso(start + MOVE_WINDOW_MS) }
}

/**
 * What became of a reminder's programme, from the channel's programmes of the same title near its
 * old start: the same start with other times (`stretched`), the nearest other start (`moved`;
 * the earlier of two as near), or nothing (`gone`).
 */
export type Whereabouts =
  | { readonly kind: "stretched"; readonly programme: ProgrammeOnStream }
  | { readonly kind: "moved"; readonly programme: ProgrammeOnStream }
  | { readonly kind: "gone" }

export function whereaboutsOf(
  reminder: Pick<ReminderRow, "start_at" | "title">,
  candidates: ReadonlyArray<ProgrammeOnStream>
): Whereabouts {
  const start = Date.parse(reminder.start_at)
  let nearest: ProgrammeOnStream | undefined
  let nearestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    if (candidate.title !== reminder.title) continue
    const distance = Math.abs(Date.parse(candidate.start_at) - start)
    if (distance > MOVE_WINDOW_MS) continue
    if (distance === 0) return { kind: "stretched", programme: candidate }
    if (distance < nearestDistance || (distance === nearestDistance && nearest !== undefined && candidate.start_at < nearest.start_at)) {
      nearest = candidate
      nearestDistance = distance
    }
  }
  return nearest === undefined ? { kind: "gone" } : { kind: "moved", programme: nearest }
}

/** The times a reminder takes from the programme it follows. */
export const timesFrom = (programme: ProgrammeOnStream, leadMinutes: number) => ({
  start_at: programme.start_at,
  stop_at: programme.stop_at,
  remind_at: iso(remindAtOf(Date.parse(programme.start_at), leadMinutes))
})

/** A stored reminder as its viewer reads it. */
export const reminderOf = (row: ReminderRow): Reminder => ({
  id: row.id,
  streamId: row.stream_id,
  channel: row.channel,
  title: row.title,
  startTime: row.start_at,
  endTime: row.stop_at,
  leadMinutes: row.lead_minutes,
  remindAt: row.remind_at,
  state: row.state
})
