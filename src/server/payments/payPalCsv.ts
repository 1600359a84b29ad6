import { CsvError, parse } from "csv-parse/sync"
import { CURRENCY_PATTERN } from "../../domain/Payment.ts"
import { isEmail, normaliseEmail } from "../../domain/Validation.ts"
import {
  type DateFormat,
  type DateFormatOption,
  dateReadings,
  instantOf,
  parseAmount,
  parseDay,
  parseTime,
  zoneOf
} from "./payPalValues.ts"

/** A completed incoming payment of the export. */
export interface PayPalPayment {
  /** The file's line, for messages. */
  readonly line: number
  readonly transactionId: string
  /** ISO-8601 UTC. */
  readonly paidAt: string
  /** The payer's address, lower-cased. */
  readonly email: string
  readonly gross: number
  /** What PayPal kept, as a positive amount (the export writes it negative). */
  readonly fee: number
  readonly currency: string
}

export interface PayPalActivity {
  /** In the file's order. */
  readonly payments: ReadonlyArray<PayPalPayment>
  /**
   * Rows that are no completed incoming payment, counted by why: their status ("Pending"), or for
   * a completed row its type ("completed Payment Refund", "completed General Currency Conversion",
   * "completed Payment Received, no money in" for one that brought nothing).
   */
  readonly skipped: ReadonlyMap<string, number>
}

/** Why a completed row was passed over: its type names it (a refund, a conversion, money sent). */
export const notAPayment = (type: string, incoming: boolean): string => {
  const name = type.trim() === "" ? "row without a Type" : type.trim()
  return incoming ? `completed ${name}, no money in` : `completed ${name}`
}

/** A file that cannot be imported as it is: the line and what is wrong there. */
export class PayPalCsvError extends Error {
  override readonly name = "PayPalCsvError"
  readonly line: number
  readonly reason: string
  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`)
    this.line = line
    this.reason = reason
  }
}

// Column names as the export's header writes them; matched ignoring case, spaces and punctuation.
const COLUMNS = {
  date: "Date",
  time: "Time",
  timeZone: "TimeZone",
  type: "Type",
  status: "Status",
  currency: "Currency",
  gross: "Gross",
  fee: "Fee",
  from: "From Email Address",
  transactionId: "Transaction ID",
  balanceImpact: "Balance Impact"
} as const
type Column = keyof typeof COLUMNS
const REQUIRED: ReadonlyArray<Column> = ["date", "type", "status", "currency", "gross", "from", "transactionId"]

const key = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "")

/** Money that came in: "Subscription Payment", "Express Checkout Payment", "Website Payment", "Payment Received"… */
export const isIncomingPaymentType = (type: string): boolean =>
  /\bpayment(\s+received)?$/i.test(type.trim()) && !/refund|revers|cancel|sent|withdraw/i.test(type)

const TRANSACTION_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/

interface Row {
  readonly line: number
  readonly cell: (column: Column) => string
}

/**
 * Reads PayPal's activity export (Activity → Download, CSV): its completed incoming payments,
 * and how many other rows it passed over. Throws PayPalCsvError for a file that is not such an
 * export, or a completed payment whose amount, date, payer or id cannot be read.
 */
export function readPayPalActivity(text: string, options: { readonly dateFormat?: DateFormatOption } = {}): PayPalActivity {
  const [header, ...records] = parseRecords(text)
  if (header === undefined) throw new PayPalCsvError(1, "the file is empty")
  const columns = columnsOf(header.record)
  const rows = records.map((record) => toRow(record, columns))

  const skipped = new Map<string, number>()
  const skip = (reason: string) => skipped.set(reason, (skipped.get(reason) ?? 0) + 1)
  const candidates: Array<{ row: Row; gross: number }> = []
  for (const row of rows) {
    const status = row.cell("status").trim()
    if (status.toLowerCase() !== "completed") {
      skip(status === "" ? "no status" : status)
      continue
    }
    const gross = amount(row, "gross", "Gross")
    const impact = row.cell("balanceImpact").trim().toLowerCase()
    const incoming = isIncomingPaymentType(row.cell("type"))
    if (gross <= 0 || !incoming || impact === "debit" || impact === "memo") skip(notAPayment(row.cell("type"), incoming))
    else candidates.push({ row, gross })
  }

  const format = dateFormatFor(
    rows,
    candidates.map(({ row }) => row),
    options.dateFormat ?? "auto"
  )
  return { payments: candidates.map(({ row, gross }) => toPayment(row, gross, format)), skipped }
}

function parseRecords(text: string): Array<{ record: Array<string>; info: { lines: number } }> {
  try {
    return parse(text, { bom: true, info: true, skip_empty_lines: true }) as unknown as Array<{
      record: Array<string>
      info: { lines: number }
    }>
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    const line = typeof error.lines === "number" ? error.lines : 1
    throw new PayPalCsvError(line, csvReason(error))
  }
}

function csvReason(error: CsvError): string {
  switch (error.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH": {
      const counts = /expect (\d+), got (\d+)/.exec(error.message)
      return counts === null
        ? "the row has a different number of fields than the header"
        : `the row has ${counts[2]} fields where the header has ${counts[1]}`
    }
    case "CSV_QUOTE_NOT_CLOSED":
      return "a quoted field is never closed"
    case "CSV_INVALID_CLOSING_QUOTE":
    case "INVALID_OPENING_QUOTE":
      return "a quote in the middle of a field: not CSV as PayPal writes it"
    default:
      return error.message
  }
}

function columnsOf(header: ReadonlyArray<string>): ReadonlyMap<Column, number> {
  const positions = new Map(header.map((name, index) => [key(name), index]))
  const found = new Map<Column, number>()
  for (const column of Object.keys(COLUMNS) as Array<Column>) {
    const index = positions.get(key(COLUMNS[column]))
    if (index !== undefined) found.set(column, index)
  }
  const missing = REQUIRED.filter((column) => !found.has(column))
  if (missing.length > 0) {
    const names = missing.map((column) => `"${COLUMNS[column]}"`).join(", ")
    throw new PayPalCsvError(1, `the header has no ${names} column${missing.length === 1 ? "" : "s"}: not a PayPal activity export`)
  }
  return found
}

const toRow = (
  { record, info }: { record: ReadonlyArray<string>; info: { lines: number } },
  columns: ReadonlyMap<Column, number>
): Row => ({
  line: info.lines,
  cell: (column) => {
    const index = columns.get(column)
    return index === undefined ? "" : (record[index] ?? "")
  }
})

function amount(row: Row, column: Column, label: string): number {
  const text = row.cell(column)
  const value = parseAmount(text)
  if (value === undefined) throw new PayPalCsvError(row.line, `${label} "${text}" is not an amount`)
  return value
}

/**
 * The order the file writes its days in: as asked, or read off the file, where a day above 12
 * shows which part is the day. A file whose every date reads both ways is refused rather than guessed.
 */
function dateFormatFor(rows: ReadonlyArray<Row>, payments: ReadonlyArray<Row>, asked: DateFormatOption): DateFormat {
  if (asked !== "auto") return asked
  const seen = { dmy: undefined as Row | undefined, mdy: undefined as Row | undefined }
  for (const row of rows) {
    const readings = dateReadings(row.cell("date"))
    if (readings.length !== 1) continue
    if (readings[0] === "dmy") seen.dmy ??= row
    if (readings[0] === "mdy") seen.mdy ??= row
  }
  if (seen.dmy !== undefined && seen.mdy !== undefined) {
    const [first, second] = [seen.dmy, seen.mdy].sort((a, b) => a.line - b.line) as [Row, Row]
    throw new PayPalCsvError(
      second.line,
      `the date "${second.cell("date")}" is written in another order than "${first.cell("date")}" on line ${first.line}`
    )
  }
  if (seen.dmy !== undefined) return "dmy"
  if (seen.mdy !== undefined) return "mdy"
  const ambiguous = payments.find((row) => dateReadings(row.cell("date")).length === 2)
  if (ambiguous !== undefined) {
    throw new PayPalCsvError(
      ambiguous.line,
      `every date in the file could be DD/MM/YYYY or MM/DD/YYYY ("${ambiguous.cell("date")}"): give --date-format dmy or mdy`
    )
  }
  return "ymd"
}

function toPayment(row: Row, gross: number, format: DateFormat): PayPalPayment {
  const fail = (reason: string): never => {
    throw new PayPalCsvError(row.line, reason)
  }
  const transactionId = row.cell("transactionId").trim()
  if (!TRANSACTION_ID.test(transactionId))
    fail(
      transactionId === ""
        ? "a completed payment without a Transaction ID"
        : `Transaction ID "${transactionId}" is not a PayPal transaction id`
    )
  const from = row.cell("from").trim()
  if (!isPayerAddress(from))
    fail(from === "" ? "a completed payment without a From Email Address" : `From Email Address "${from}" is not an email address`)
  const currency = row.cell("currency").trim().toUpperCase()
  if (!CURRENCY_PATTERN.test(currency)) fail(`Currency "${row.cell("currency")}" is not a currency code such as USD`)
  const feeText = row.cell("fee").trim()
  const fee = feeText === "" ? 0 : Math.abs(amount(row, "fee", "Fee"))
  const day = parseDay(row.cell("date"), format) ?? fail(`Date "${row.cell("date")}" is not a date written ${FORMAT_NAMES[format]}`)
  const time = parseTime(row.cell("time")) ?? fail(`Time "${row.cell("time")}" is not a time of day`)
  const zone = zoneOf(row.cell("timeZone")) ?? fail(`TimeZone "${row.cell("timeZone")}" is not a time zone this import knows`)
  return { line: row.line, transactionId, paidAt: instantOf(day, time, zone), email: normaliseEmail(from), gross, fee, currency }
}

// PayPal may know a payer by an address sign-up refuses (text before the @ outside ASCII): the
// payment is still one, counted as from a payer without an account, not a sign of a broken file.
const isPayerAddress = (text: string): boolean =>
  isEmail(text) || isEmail(text.replace(/^[^@]*/, (local) => local.replace(/[\u00a0-\uffff]/g, "x")))

const FORMAT_NAMES: Readonly<Record<DateFormat, string>> = { dmy: "DD/MM/YYYY", mdy: "MM/DD/YYYY", ymd: "YYYY-MM-DD" }
