/** Dates are shown in en-GB format (SPEC §9). */
export const DATE_LOCALE = "en-GB"

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
