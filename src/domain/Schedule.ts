import * as Schema from "effect/Schema"

// The programme guide (SPEC §2, §3): a day's programmes by channel, and what airs now and next.

/** The guide covers today and the next six days (SPEC §9). */
export const SCHEDULE_DAYS = 7

export const NO_SCHEDULE = "No data for that day"
export const TIME_ZONE_MESSAGE = "Expected an IANA time zone such as Europe/Oslo"

/** A time zone the runtime knows by its IANA name. */
export const isTimeZone = (name: string): boolean => {
  if (name === "") return false
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: name })
    return true
  } catch {
    return false
  }
}

export const TimeZone = Schema.String.pipe(
  Schema.refine((name: string): name is string => isTimeZone(name), { message: TIME_ZONE_MESSAGE })
)

/** `?tz=`: the viewer's zone, whose local day the guide shows; UTC when absent. */
export const ScheduleQuery = Schema.Struct({ tz: Schema.optionalKey(TimeZone) })
export type ScheduleQuery = typeof ScheduleQuery.Type

/** One programme; times are ISO-8601 instants (UTC). */
export const EpgEntry = Schema.Struct({
  StartTime: Schema.String,
  EndTime: Schema.String,
  Title: Schema.String,
  Subtitle: Schema.String
})
export type EpgEntry = typeof EpgEntry.Type

export const ScheduleItem = Schema.Struct({
  /** `StreamId`, beyond SPEC's `Name`: the stream this guide channel plays on, when it is one of ours. */
  Channel: Schema.Struct({ Name: Schema.String, StreamId: Schema.optionalKey(Schema.Number) }),
  EpgList: Schema.Array(EpgEntry)
})
export type ScheduleItem = typeof ScheduleItem.Type

/** What airs now and next on one stream; null when the guide has nothing there. */
export const NowNext = Schema.Struct({
  streamId: Schema.Number,
  now: Schema.NullOr(EpgEntry),
  next: Schema.NullOr(EpgEntry)
})
export type NowNext = typeof NowNext.Type

/** Programmes not yet ended, the ones airing now first, then by start time (SPEC §2). */
export const upcomingProgrammes = (entries: ReadonlyArray<EpgEntry>, now: number): ReadonlyArray<EpgEntry & { live: boolean }> =>
  entries
    .filter((entry) => Date.parse(entry.EndTime) > now)
    .map((entry) => ({ ...entry, live: Date.parse(entry.StartTime) <= now }))
    .sort((a, b) => Number(b.live) - Number(a.live) || Date.parse(a.StartTime) - Date.parse(b.StartTime))

export const isAiring = (entry: EpgEntry, now: number): boolean => Date.parse(entry.StartTime) <= now && now < Date.parse(entry.EndTime)

/** How far a programme has run, from 0 to 1. */
export const progressOf = (entry: EpgEntry, now: number): number => {
  const start = Date.parse(entry.StartTime)
  const length = Date.parse(entry.EndTime) - start
  return length > 0 ? Math.min(1, Math.max(0, (now - start) / length)) : 0
}
