import * as Schema from "effect/Schema"

/** Dates are shown in en-GB format (SPEC §9). */
export const DATE_LOCALE = "en-GB"

const dateFormat = new Intl.DateTimeFormat(DATE_LOCALE, { day: "2-digit", month: "2-digit", year: "numeric" })

/** An instant as a date in the viewer's zone, en-GB (24/11/2026); "---" when it is no instant (SPEC §2's placeholder). */
export const formatDate = (iso: string): string => {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? "---" : dateFormat.format(ms)
}

/** Date pickers (SPEC §5, §9): weeks start on Monday; days are 0 = Sunday … 6 = Saturday, as Date#getDay. */
export const DATE_PICKER = {
  firstDayOfWeek: 1,
  weekendDays: [0, 6],
  labelFormat: "MMMM YYYY",
  yearsPerPage: 12,
  minYear: 100,
  maxYear: 10000,
  rangeMonths: 2
} as const

/** A real calendar day written YYYY-MM-DD, e.g. 2026-11-23 (not 2026-02-30). */
export const isIsoDay = (text: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

export const IsoDay = Schema.String.pipe(
  Schema.refine((text: string): text is string => isIsoDay(text), { message: "Expected a date as YYYY-MM-DD" })
)

/** A calendar day (YYYY-MM-DD) in en-GB, 24/11/2026, whatever the viewer's zone. */
export const formatDay = (day: string): string => {
  const [year, month, date] = day.split("-")
  return year === undefined || month === undefined || date === undefined ? "---" : `${date}/${month}/${year}`
}

/** The page of the pickers' year grid holding `year`: DATE_PICKER.yearsPerPage years from minYear on, none past maxYear. */
export const yearPage = (year: number): ReadonlyArray<number> => {
  const { minYear, maxYear, yearsPerPage } = DATE_PICKER
  const clamped = Math.min(maxYear, Math.max(minYear, Math.trunc(year)))
  const first = minYear + Math.floor((clamped - minYear) / yearsPerPage) * yearsPerPage
  return Array.from({ length: yearsPerPage }, (_, index) => first + index).filter((candidate) => candidate <= maxYear)
}

const utcTime = new Intl.DateTimeFormat(DATE_LOCALE, { timeZone: "UTC", hour: "2-digit", minute: "2-digit", second: "2-digit" })
const localTime = new Intl.DateTimeFormat(DATE_LOCALE, { hour: "2-digit", minute: "2-digit", second: "2-digit" })

/** An instant's time of day in UTC, 24-hour (17:05:09); "---" when it is no instant. */
export const formatTimeUtc = (iso: string): string => {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? "---" : utcTime.format(ms)
}

/** An instant's time of day in the viewer's zone, 24-hour; "---" when it is no instant. */
export const formatTimeLocal = (iso: string): string => {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? "---" : localTime.format(ms)
}
