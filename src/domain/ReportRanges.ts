import { TZDate } from "@date-fns/tz"
import { addDays } from "date-fns/addDays"
import { differenceInCalendarDays } from "date-fns/differenceInCalendarDays"
import { format } from "date-fns/format"
import { startOfMonth } from "date-fns/startOfMonth"
import { subDays } from "date-fns/subDays"

// Calendar arithmetic of the reports' ranges, apart from the contract's schemas so that pages
// which only call the API do not carry the date library.

const DAY_FORMAT = "yyyy-MM-dd"
const utcDay = (day: string): TZDate => {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number)
  return new TZDate(year, month - 1, date, "UTC")
}

/** How many days a range holds, both ends included; 0 when it ends before it starts. */
export const rangeDays = (start: string, end: string): number => Math.max(0, differenceInCalendarDays(utcDay(end), utcDay(start)) + 1)

/** The period of the same length that ends the day before `start`. */
export const previousRange = (start: string, end: string): { start: string; end: string } => {
  const first = utcDay(start)
  return { start: format(subDays(first, rangeDays(start, end)), DAY_FORMAT), end: format(subDays(first, 1), DAY_FORMAT) }
}

/** Every day of a range in order, YYYY-MM-DD. */
export const daysOf = (start: string, end: string): string[] => {
  const first = utcDay(start)
  return Array.from({ length: rangeDays(start, end) }, (_, index) => format(addDays(first, index), DAY_FORMAT))
}

/**
 * The reports' first range: the first of the current month to today (SPEC §2), in UTC days as the
 * server counts them, so a staff member west of UTC in the evening still sees today's payments.
 */
export const defaultReportRange = (now: Date): { start: string; end: string } => {
  const today = new TZDate(now.getTime(), "UTC")
  return { start: format(startOfMonth(today), DAY_FORMAT), end: format(today, DAY_FORMAT) }
}
