import { format } from "date-fns/format"

// The date pickers' captions, apart from Dates.ts (which the contract's schemas use) so that
// pages without a picker do not carry the date library.

/** A local date's calendar day, YYYY-MM-DD. */
export const dayOf = (date: Date): string => format(date, "yyyy-MM-dd")

/** A picker's month caption (SPEC §9: 'MMMM YYYY'), e.g. November 2026. */
export const monthCaption = (date: Date): string => format(date, "MMMM yyyy")

/** A picker day's spoken name, its visible number first: 24 November 2026, Tuesday. */
export const dayName = (date: Date): string => format(date, "d MMMM yyyy, EEEE")
