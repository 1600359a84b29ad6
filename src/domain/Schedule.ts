import { Schema } from "effect"

export const EpgEntry = Schema.Struct({
  StartTime: Schema.String,
  EndTime: Schema.String,
  Title: Schema.String,
  Subtitle: Schema.String
})
export type EpgEntry = typeof EpgEntry.Type

export const ScheduleItem = Schema.Struct({
  Channel: Schema.Struct({ Name: Schema.String }),
  EpgList: Schema.Array(EpgEntry)
})
export type ScheduleItem = typeof ScheduleItem.Type

/** The guide covers today and the next six days (SPEC §9). */
export const SCHEDULE_DAYS = 7

export const NO_SCHEDULE = "No data for that day"

/** Programmes not yet ended, the ones airing now first, then by start time (SPEC §2). */
export const upcomingProgrammes = (entries: ReadonlyArray<EpgEntry>, now: number): ReadonlyArray<EpgEntry & { live: boolean }> =>
  entries
    .filter((entry) => Date.parse(entry.EndTime) > now)
    .map((entry) => ({ ...entry, live: Date.parse(entry.StartTime) <= now }))
    .sort((a, b) => Number(b.live) - Number(a.live) || Date.parse(a.StartTime) - Date.parse(b.StartTime))
