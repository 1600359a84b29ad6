// Reminders' words for times, in the viewer's zone (the guide's, or the browser's own when none is
// given): the guide's 12-hour clock times, and days in en-GB form.

const dayFormats = new Map<string, Intl.DateTimeFormat>()
const dayFormat = (timeZone: string | undefined): Intl.DateTimeFormat => {
  let format = dayFormats.get(timeZone ?? "")
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-GB", {
      weekday: "short",
      day: "numeric",
      month: "short",
      ...(timeZone === undefined ? {} : { timeZone })
    })
    dayFormats.set(timeZone ?? "", format)
  }
  return format
}
const timeFormats = new Map<string, Intl.DateTimeFormat>()
const timeFormat = (timeZone: string | undefined): Intl.DateTimeFormat => {
  let format = timeFormats.get(timeZone ?? "")
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      hour: "numeric",
      minute: "2-digit",
      hour12: true,
      ...(timeZone === undefined ? {} : { timeZone })
    })
    timeFormats.set(timeZone ?? "", format)
  }
  return format
}

/** "7:50 PM", as the guide writes its times. */
export const reminderTime = (iso: string, timeZone?: string): string => timeFormat(timeZone).format(new Date(iso)).replace(/\s/g, " ")

/** "Sat 28 Nov, 8:00 PM". */
export const startText = (iso: string, timeZone?: string): string =>
  `${dayFormat(timeZone).format(new Date(iso))}, ${reminderTime(iso, timeZone)}`
