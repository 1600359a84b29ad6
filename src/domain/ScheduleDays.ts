import { TZDate } from "@date-fns/tz"
import { SCHEDULE_DAYS } from "./Schedule.ts"

// The guide's local days, apart from the contract's schemas so that pages which only call the
// API do not carry the time-zone library.

const dayOf = (date: TZDate): string =>
  `${String(date.getFullYear()).padStart(4, "0")}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`

/**
 * The instants a local day spans in a zone, [start, end): 24 hours, or 23 and 25 on the days
 * the clocks change.
 */
export const localDayBounds = (day: string, timeZone: string): { readonly start: number; readonly end: number } => {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number]
  return {
    start: new TZDate(year, month - 1, date, timeZone).getTime(),
    end: new TZDate(year, month - 1, date + 1, timeZone).getTime()
  }
}

/** Today and the next six days in a zone, as YYYY-MM-DD (SPEC §2: a select of seven days). */
export const scheduleDays = (now: number, timeZone: string): ReadonlyArray<string> => {
  const today = new TZDate(now, timeZone)
  return Array.from({ length: SCHEDULE_DAYS }, (_, offset) =>
    dayOf(new TZDate(today.getFullYear(), today.getMonth(), today.getDate() + offset, timeZone))
  )
}
