import { TZDate } from "@date-fns/tz"

// The values of a PayPal activity export as its locale writes them: amounts with either decimal
// mark, dates day-first, month-first or ISO, times with or without AM/PM, and the zone PayPal
// printed beside them.

/** How the file writes its days: DD/MM/YYYY, MM/DD/YYYY or YYYY-MM-DD (any of / . - between). */
export type DateFormat = "dmy" | "mdy" | "ymd"
export type DateFormatOption = DateFormat | "auto"
export const DATE_FORMAT_OPTIONS: ReadonlyArray<DateFormatOption> = ["auto", "dmy", "mdy", "ymd"]

const GROUPING = /[\s\u00a0\u202f'’]/g
const MAX_DECIMALS = 8

/**
 * An amount as PayPal writes it in any locale: "1,234.50", "1.234,50", "1 234,50", "-0.64",
 * "(5.00)", "1500". A lone separator followed by exactly three digits groups thousands ("1,500"
 * is 1500): PayPal writes cents with two decimals, and zero-decimal currencies (JPY) with none.
 */
export const parseAmount = (text: string): number | undefined => {
  let body = text.replace(GROUPING, "")
  let sign = 1
  const bracketed = /^\((.*)\)$/.exec(body)
  if (bracketed !== null) {
    body = bracketed[1] ?? ""
    sign = -1
  }
  if (/^[-−+]/.test(body)) {
    if (body[0] !== "+") sign = -sign
    body = body.slice(1)
  }
  if (!/^\d[\d.,]*$/.test(body)) return undefined
  const lastDot = body.lastIndexOf(".")
  const lastComma = body.lastIndexOf(",")
  let whole = body
  let fraction = ""
  if (lastDot !== -1 && lastComma !== -1) {
    const decimal = lastDot > lastComma ? "." : ","
    const group = decimal === "." ? "," : "."
    ;[whole, fraction] = splitAt(body, body.lastIndexOf(decimal))
    if (whole.includes(decimal) || !isGrouped(whole, group)) return undefined
  } else if (lastDot !== -1 || lastComma !== -1) {
    const separator = lastDot !== -1 ? "." : ","
    const parts = body.split(separator)
    if (parts.length > 2 || (parts[1] ?? "").length === 3) {
      if (!isGrouped(body, separator)) return undefined
    } else {
      ;[whole, fraction] = [parts[0] ?? "", parts[1] ?? ""]
    }
  }
  const digits = whole.replace(/[.,]/g, "")
  if (digits === "" || fraction.length > MAX_DECIMALS || !/^\d*$/.test(fraction)) return undefined
  if (fraction === "" && /[.,]$/.test(body)) return undefined
  const value = Number(fraction === "" ? digits : `${digits}.${fraction}`)
  return Number.isFinite(value) ? sign * value + 0 : undefined
}

const splitAt = (text: string, index: number): [string, string] => [text.slice(0, index), text.slice(index + 1)]

/** "1,234,567" with `group` ",": one to three digits, then groups of exactly three. */
const isGrouped = (text: string, group: string): boolean => {
  const parts = text.split(group)
  return parts.length === 1 ? /^\d+$/.test(text) : /^\d{1,3}$/.test(parts[0] ?? "") && parts.slice(1).every((part) => /^\d{3}$/.test(part))
}

export interface CalendarDay {
  readonly year: number
  readonly month: number
  readonly day: number
}

const DAY_SHAPE = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/

/** Which orders could read a date: ISO alone, day-first, month-first, or both when the day is 12 or less. */
export const dateReadings = (text: string): ReadonlyArray<DateFormat> => {
  const match = DAY_SHAPE.exec(text.trim())
  if (match === null) return []
  const [first, second, third] = [match[1] ?? "", Number(match[2]), match[3] ?? ""]
  if (first.length === 4) return third.length <= 2 ? ["ymd"] : []
  if (third.length !== 4 || first.length > 2) return []
  const readings: Array<DateFormat> = []
  if (Number(first) <= 31 && second <= 12) readings.push("dmy")
  if (Number(first) <= 12 && second <= 31) readings.push("mdy")
  return readings
}

/** A real calendar day in the given order; undefined for "31/02/2026" or text of another shape. */
export const parseDay = (text: string, format: DateFormat): CalendarDay | undefined => {
  const match = DAY_SHAPE.exec(text.trim())
  if (match === null) return undefined
  const [a, b, c] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const [year, month, day] = format === "ymd" ? [a, b, c] : format === "dmy" ? [c, b, a] : [c, a, b]
  if ((format === "ymd" ? match[1] : match[3])?.length !== 4) return undefined
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? { year, month, day } : undefined
}

export interface ClockTime {
  readonly hour: number
  readonly minute: number
  readonly second: number
}

/** "14:05:09", "14:05", "2:05:09 PM"; an empty cell is midnight. */
export const parseTime = (text: string): ClockTime | undefined => {
  const trimmed = text.trim()
  if (trimmed === "") return { hour: 0, minute: 0, second: 0 }
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(trimmed)
  if (match === null) return undefined
  let hour = Number(match[1])
  const [minute, second] = [Number(match[2]), Number(match[3] ?? "0")]
  const half = match[4]?.toUpperCase()
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (half === "PM" ? 12 : 0)
  }
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : undefined
}

// The abbreviations PayPal prints name the offset in force at that moment (PST in winter, PDT in
// summer), so each is a fixed offset. IANA's own short names are not used: to it BST is Bangladesh.
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  UTC: "+00:00",
  GMT: "+00:00",
  Z: "+00:00",
  WET: "+00:00",
  WEST: "+01:00",
  BST: "+01:00",
  CET: "+01:00",
  CEST: "+02:00",
  MET: "+01:00",
  MEST: "+02:00",
  EET: "+02:00",
  EEST: "+03:00",
  MSK: "+03:00",
  HST: "-10:00",
  AKST: "-09:00",
  AKDT: "-08:00",
  PST: "-08:00",
  PDT: "-07:00",
  MST: "-07:00",
  MDT: "-06:00",
  CST: "-06:00",
  CDT: "-05:00",
  EST: "-05:00",
  EDT: "-04:00",
  AST: "-04:00",
  ADT: "-03:00",
  NST: "-03:30",
  NDT: "-02:30",
  SGT: "+08:00",
  HKT: "+08:00",
  AWST: "+08:00",
  JST: "+09:00",
  KST: "+09:00",
  ACST: "+09:30",
  ACDT: "+10:30",
  AEST: "+10:00",
  AEDT: "+11:00",
  NZST: "+12:00",
  NZDT: "+13:00"
}

/** A zone the export may name, as an offset or IANA name TZDate reads; undefined when unknown. An empty cell is UTC. */
export const zoneOf = (text: string): string | undefined => {
  const trimmed = text.trim()
  if (trimmed === "") return "+00:00"
  const abbreviation = ABBREVIATIONS[trimmed.toUpperCase()]
  if (abbreviation !== undefined) return abbreviation
  const offset = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(trimmed)
  if (offset !== null) {
    const [hours, minutes] = [Number(offset[2]), Number(offset[3] ?? "0")]
    return hours <= 14 && minutes <= 59 ? `${offset[1]}${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}` : undefined
  }
  return trimmed.includes("/") && !Number.isNaN(new TZDate(2000, 0, 1, trimmed).getTime()) ? trimmed : undefined
}

/** The instant a local day and time in `zone` names, as ISO-8601 UTC. */
export const instantOf = (day: CalendarDay, time: ClockTime, zone: string): string =>
  new Date(new TZDate(day.year, day.month - 1, day.day, time.hour, time.minute, time.second, zone).getTime()).toISOString()
