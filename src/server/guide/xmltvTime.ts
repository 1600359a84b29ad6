// XMLTV's date-times (xmltv.dtd): `YYYYMMDDhhmmss` or any leading part of it down to the year,
// then an optional zone, a numeric offset (`+0100`, `-05:30`) or UTC by name; no zone means UTC.
// Read by hand rather than by a regular expression: a guide has two per programme, and the match
// arrays alone were a noticeable share of what an import allocates.

const MINUTE = 60_000
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const UTC_NAMES = new Set(["z", "utc", "gmt"])

/** The number written by `count` digits at `from`, or NaN. */
function digits(text: string, from: number, count: number): number {
  let value = 0
  for (let i = from; i < from + count; i += 1) {
    const digit = text.charCodeAt(i) - 48
    if (!(digit >= 0 && digit <= 9)) return Number.NaN
    value = value * 10 + digit
  }
  return value
}

/** Minutes east of UTC, 0 for none or UTC by name, undefined for anything else (`BST`, `+2500`). */
function offsetMinutes(zone: string): number | undefined {
  if (zone === "" || UTC_NAMES.has(zone.toLowerCase())) return 0
  const sign = zone[0] === "+" ? 1 : zone[0] === "-" ? -1 : 0
  const hours = digits(zone, 1, 2)
  const rest = zone.slice(3).replace(/^:/, "")
  const minutes = rest === "" ? 0 : rest.length === 2 ? digits(rest, 0, 2) : Number.NaN
  if (sign === 0 || zone.length < 3 || !(hours <= 14) || !(minutes <= 59)) return undefined
  return sign * (hours * 60 + minutes)
}

// 31 April is a typo, not 1 May
const daysIn = (year: number, month: number): number =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0)

/** Epoch ms, or undefined for a time that is malformed, out of range or in a zone named by letters. */
export function parseXmltvTime(raw: string): number | undefined {
  const text = raw.trim()
  let length = 0
  while (length < 14 && text.charCodeAt(length) >= 48 && text.charCodeAt(length) <= 57) length += 1
  if (length < 4 || length % 2 !== 0) return undefined
  const year = digits(text, 0, 4)
  const month = length > 4 ? digits(text, 4, 2) : 1
  const day = length > 6 ? digits(text, 6, 2) : 1
  const hour = length > 8 ? digits(text, 8, 2) : 0
  const minute = length > 10 ? digits(text, 10, 2) : 0
  const second = length > 12 ? digits(text, 12, 2) : 0
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59)) return undefined
  const offset = offsetMinutes(text.slice(length).trim())
  if (offset === undefined) return undefined
  return Date.UTC(year, month - 1, day, hour, minute, second) - offset * MINUTE
}
