import * as Schema from "effect/Schema"
import { TimeZone } from "./Schedule.ts"
import { startOverSearch } from "./Timeshift.ts"

// Reminders: "Remind me" on a programme of the guide mails the viewer a chosen time
// before it starts, with a link that opens the channel (from the start when they are late); a
// private calendar feed lists the same programmes for phones and calendar apps.

/** How long before the start a reminder may be mailed, in minutes. */
export const LEAD_MINUTES = [5, 10, 15, 30, 60] as const
export type LeadMinutes = (typeof LEAD_MINUTES)[number]
export const DEFAULT_LEAD_MINUTES: LeadMinutes = 10

/** Reminders one account may have for programmes still to come; past ones do not count. */
export const MAX_REMINDERS = 100

export const LEAD_MESSAGE = "Choose 5, 10, 15, 30 or 60 minutes before the start"
export const START_TIME_MESSAGE = "Expected the programme's start as an ISO 8601 instant, e.g. 2026-11-28T20:00:00.000Z"
export const STREAM_ID_MESSAGE = "Expected a stream id"
export const REMINDER_ID_MESSAGE = "Expected a reminder id"
export const PROGRAMME_NOT_FOUND = "That programme is not in the guide of this channel (any more). Reload the schedule and try again."
export const PROGRAMME_STARTED =
  "That programme has already started, so there is nothing to remind you of: watch it from the start instead."
export const REMINDER_SET = "Reminder set"
export const REMINDER_REMOVED = "Reminder removed"
export const REMINDER_NOT_FOUND = "That reminder is gone already."
export const TOO_MANY_REMINDERS = `You have ${MAX_REMINDERS} reminders set, the most an account may have. Remove one to set another.`
export const CALENDAR_FEED_REVOKED = "Calendar feed turned off: its address no longer works."
export const REMINDERS_FAILED_MESSAGE = "Your reminders could not be loaded."
export const CALENDAR_FEED_FAILED_MESSAGE = "Your calendar feed could not be loaded."
export const NO_REMINDERS = "No reminders yet. Choose Remind me on a programme in the Stream Schedule."

/** The page that lists a viewer's reminders and their calendar feed. */
export const REMINDERS_ROUTE = "/reminders"

const isInstant = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && Number.isFinite(Date.parse(text))

/** An instant as ISO 8601 with a zone (Z or an offset), as the guide's StartTime is. */
export const Instant = Schema.String.pipe(Schema.refine((text: string): text is string => isInstant(text), { message: START_TIME_MESSAGE }))

export const LeadMinutesSchema = Schema.Number.pipe(
  Schema.refine((value: number): value is LeadMinutes => (LEAD_MINUTES as ReadonlyArray<number>).includes(value), { message: LEAD_MESSAGE })
)

const isId = (value: number): boolean => Number.isSafeInteger(value) && value > 0
export const StreamIdSchema = Schema.Number.pipe(
  Schema.refine((value: number): value is number => isId(value), { message: STREAM_ID_MESSAGE })
)

/** "Remind me": the programme as the guide shows it (its stream and start), how long before, and the zone the mail says the time in (UTC when absent). */
export const NewReminder = Schema.Struct({
  streamId: StreamIdSchema,
  startTime: Instant,
  leadMinutes: LeadMinutesSchema,
  timeZone: Schema.optionalKey(TimeZone)
})
export type NewReminder = typeof NewReminder.Type

/** A reminder's id in a path: digits, as the server stores them. */
export const ReminderIdParam = Schema.String.check(Schema.isPattern(/^[1-9]\d{0,15}$/, { message: REMINDER_ID_MESSAGE }))

/** pending until mailed; sent once mailed; dropped when a guide refresh took the programme out (the viewer was told). */
export const ReminderStateSchema = Schema.Literals(["pending", "sent", "dropped"])
export type ReminderState = typeof ReminderStateSchema.Type

/** One reminder as its viewer sees it. Times are ISO instants (UTC). */
export const Reminder = Schema.Struct({
  id: Schema.Number,
  streamId: Schema.Number,
  /** the channel as the streams grid names it */
  channel: Schema.String,
  title: Schema.String,
  startTime: Schema.String,
  endTime: Schema.String,
  leadMinutes: Schema.Number,
  remindAt: Schema.String,
  state: ReminderStateSchema
})
export type Reminder = typeof Reminder.Type

/** The calendar feed of an account: whether it has one, since when, and its address only right after it was made. */
export const CalendarFeed = Schema.Struct({
  active: Schema.Boolean,
  createdAt: Schema.NullOr(Schema.String),
  /** the feed's address: answered once, when it is made (only its hash is kept) */
  url: Schema.optionalKey(Schema.String)
})
export type CalendarFeed = typeof CalendarFeed.Type

/** When a reminder of a programme starting at `startMs` is mailed. */
export const remindAtOf = (startMs: number, leadMinutes: number): number => startMs - leadMinutes * 60_000

/** The key of a programme on a stream, as the guide and the reminders both name it. */
export const programmeKey = (streamId: number, startTime: string): string => `${streamId}|${new Date(startTime).toISOString()}`

/** The player page a reminder opens: that stream, from the programme's start when the viewer is late, live otherwise. */
export const reminderPlayerPath = (streamId: number, startTime: string): string => `/player${startOverSearch(streamId, startTime)}`

/** "10 minutes before", "1 hour before". */
export const leadLabel = (minutes: number): string => (minutes === 60 ? "1 hour before" : `${minutes} minutes before`)

/** A reminder is listed until its programme has ended. */
export const isUpcoming = (reminder: Pick<Reminder, "endTime">, now: number): boolean => Date.parse(reminder.endTime) > now

/** The path of an account's calendar feed, from its secret. */
export const calendarFeedPath = (secret: string): string => `/calendar/${secret}.ics`
