// The guide's words for times and days. Clock times are in the viewer's zone, in 12-hour form
// (SPEC §2: "6:30 PM"); dates in en-GB form (SPEC §9).

const clockFormats = new Map<string, Intl.DateTimeFormat>()
const clockFormat = (timeZone: string): Intl.DateTimeFormat => {
  let format = clockFormats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", hour12: true, timeZone })
    clockFormats.set(timeZone, format)
  }
  return format
}

/** "6:30 PM". Newer ICU puts a narrow no-break space before PM; the guide writes the plain one SPEC shows. */
export const clockTime = (iso: string, timeZone: string): string => clockFormat(timeZone).format(new Date(iso)).replace(/\s/g, " ")

const zoneNameIn = (timeZone: string, style: "longGeneric" | "long"): string | undefined =>
  new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: style }).formatToParts(0).find((part) => part.type === "timeZoneName")?.value

const OFFSET_ONLY = /^GMT([+-]|$)/

/**
 * The zone as people call it ("India Standard Time", "Pacific Time"), not its IANA id, which may be
 * a legacy one ("Asia/Calcutta"). The generic name holds across a daylight-saving change within
 * the seven days; where there is none (UTC) the specific one, and an offset only as a last resort.
 */
export const zoneName = (timeZone: string): string => {
  try {
    const generic = zoneNameIn(timeZone, "longGeneric")
    if (generic !== undefined && !OFFSET_ONLY.test(generic)) return generic
    return zoneNameIn(timeZone, "long") ?? generic ?? timeZone
  } catch {
    // an id this browser does not know: saying it beats saying nothing
    return timeZone
  }
}

// A YYYY-MM-DD day is already the viewer's local day: read it at noon UTC and format it in UTC.
const calendarDate = (day: string): Date => new Date(`${day}T12:00:00Z`)
const longDate = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" })
const shortDate = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" })

/** The select's words for the nth of the seven days: "Today, Monday 23 November", then "Tomorrow, …". */
export const dayOption = (day: string, index: number): string => {
  const date = longDate.format(calendarDate(day))
  return index === 0 ? `Today, ${date}` : index === 1 ? `Tomorrow, ${date}` : date
}

/** A search result's day, briefly: "Today", "Tomorrow", "Wed 25 Nov". */
export const dayShort = (day: string, days: ReadonlyArray<string>): string => {
  const index = days.indexOf(day)
  return index === 0 ? "Today" : index === 1 ? "Tomorrow" : shortDate.format(calendarDate(day))
}
