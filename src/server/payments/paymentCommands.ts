import { readFile } from "node:fs/promises"
import { CURRENCY_PATTERN, isPaymentProvider, PAYMENT_PROVIDERS, type PaymentProvider } from "../../domain/Payment.ts"
import { audit } from "../audit/auditFeature.ts"
import { type Args, type Command, CommandFailure, optionalText, requireEmail, requireText, UsageError } from "../cli/command.ts"
import { describeImport, describeRecorded } from "./paymentReport.ts"
import { accountIdsByEmail, recordedTransactionIds } from "./paymentsRepo.ts"
import { type PayPalActivity, PayPalCsvError, readPayPalActivity } from "./payPalCsv.ts"
import { DATE_FORMAT_OPTIONS, type DateFormatOption } from "./payPalValues.ts"
import { recordPayment, recordPayments } from "./recordPayments.ts"

// An amount beyond this is a typo of a few digits more, not a month's subscription.
const MAX_AMOUNT = 1_000_000
const AMOUNT = /^\d+(\.\d{1,8})?$/
const TRANSACTION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

export const paymentImport: Command = {
  name: "payment:import",
  usage: "--file F [--date-format auto|dmy|mdy|ymd]",
  summary:
    "Import PayPal's activity export (CSV): each completed payment, matched to its account by the payer's email, " +
    "adds a paid month; ids already recorded are left alone, so importing a file twice adds nothing",
  options: { file: { type: "string" }, "date-format": { type: "string" } },
  async run(args, { db, out, now, operator }) {
    const file = requireText(args, "file")
    const dateFormat = (optionalText(args, "date-format") ?? "auto").trim().toLowerCase()
    if (!isDateFormat(dateFormat))
      throw new UsageError(`--date-format must be one of ${DATE_FORMAT_OPTIONS.join(", ")} (got "${dateFormat}")`)
    const activity = await readActivity(file, dateFormat)
    const result = await db.transaction().execute(async (trx) => {
      const recorded = await recordPayments(
        trx,
        activity.payments.map((payment) => ({
          email: payment.email,
          transactionId: payment.transactionId,
          provider: "paypal" as const,
          price: payment.gross,
          fee: payment.fee,
          currency: payment.currency,
          paidAt: payment.paidAt
        }))
      )
      const unknown = [...recorded.unknownPayers.values()].reduce((sum, count) => sum + count, 0)
      if (recorded.recorded > 0) {
        await audit.record(
          trx,
          audit.operator(operator),
          {
            action: "payment.import",
            target: `file ${file}`,
            detail: `${recorded.recorded} recorded, ${recorded.present} already there, ${unknown} without an account`
          },
          now()
        )
      }
      return recorded
    })
    out(describeImport(file, result, activity.skipped))
    return 0
  }
}

export const paymentAdd: Command = {
  name: "payment:add",
  usage: "--email E --amount A [--fee F] [--provider paypal|btc] [--currency C] [--id X] [--date D]",
  summary:
    "Record a payment by hand (a bitcoin payment, or a PayPal one missing from an export): the account gets a paid month; " +
    "--currency is USD unless given, and must be given for btc (BTC, or the currency of what it was worth)",
  options: {
    email: { type: "string" },
    amount: { type: "string" },
    fee: { type: "string" },
    provider: { type: "string" },
    id: { type: "string" },
    date: { type: "string" },
    currency: { type: "string" }
  },
  async run(args, { db, out, now, operator }) {
    const email = requireEmail(args)
    const amount = money(args, "amount", { positive: true })
    const fee = optionalText(args, "fee") === undefined ? 0 : money(args, "fee", { positive: false })
    if (fee > amount) throw new UsageError(`--fee must not be more than --amount (${fee} > ${amount})`)
    const provider = providerArg(args)
    const currency = currencyArg(args, provider)
    const id = optionalText(args, "id")?.trim()
    if (id !== undefined && !TRANSACTION_ID.test(id)) {
      throw new UsageError(`--id must be the provider's transaction id: letters, digits and . _ : - , at most 128 (got "${id}")`)
    }
    const paidAt = dateArg(args, now())

    const account = (await accountIdsByEmail(db, [email])).get(email)
    if (account === undefined) throw new CommandFailure(`No account with email ${email}. List accounts with user:list.`)
    if (id !== undefined && (await recordedTransactionIds(db, [id])).size > 0)
      throw new CommandFailure(`A payment with id ${id} is recorded already.`)
    const recorded = await db.transaction().execute(async (trx) => {
      const done = await recordPayment(trx, account, { email, transactionId: id ?? null, provider, price: amount, fee, currency, paidAt })
      if (done.outcome === "recorded") {
        await audit.record(
          trx,
          audit.operator(operator),
          {
            action: "payment.add",
            target: `user ${account} (${email})`,
            detail: `${amount} ${currency} by ${provider}${fee > 0 ? ` (fee ${fee} ${currency})` : ""}${id === undefined ? "" : `, id ${id}`}, paid ${paidAt}, month from ${done.period.start}`
          },
          now()
        )
      }
      return done
    })
    if (recorded.outcome !== "recorded") throw new CommandFailure(`A payment with id ${id} is recorded already.`)
    out(describeRecorded({ email, amount, currency, provider, id, period: recorded.period }))
    return 0
  }
}

async function readActivity(file: string, dateFormat: DateFormatOption): Promise<PayPalActivity> {
  let text: string
  try {
    text = await readFile(file, "utf8")
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new CommandFailure(
      `cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : String(error)}`
    )
  }
  try {
    return readPayPalActivity(text, { dateFormat })
  } catch (error) {
    if (error instanceof PayPalCsvError) throw new CommandFailure(`${file}, line ${error.line}: ${error.reason}. Nothing was imported.`)
    throw error
  }
}

const isDateFormat = (text: string): text is DateFormatOption => (DATE_FORMAT_OPTIONS as ReadonlyArray<string>).includes(text)

function money(args: Args, name: string, { positive }: { positive: boolean }): number {
  const text = requireText(args, name).trim()
  const value = Number(text)
  if (!AMOUNT.test(text) || value > MAX_AMOUNT || (positive && value <= 0)) {
    const range = positive ? `more than 0 and at most ${MAX_AMOUNT}` : `from 0 to ${MAX_AMOUNT}`
    throw new UsageError(`--${name} must be a number ${range}, written like 5 or 4.99 (got "${text}")`)
  }
  return value
}

/**
 * `--currency`: USD when not given for PayPal, whose exports the site is priced in. A bitcoin
 * payment has no such default: it may be recorded in bitcoin (`--currency BTC`, "BTC 0.0001") or
 * at what it was worth (`--currency USD`, "$5"), and a guess would record 0.0001 BTC as $0.0001.
 */
function currencyArg(args: Args, provider: PaymentProvider): string {
  const given = optionalText(args, "currency")
  if (given === undefined && provider === "btc")
    throw new UsageError("--currency is required with --provider btc: BTC for the amount in bitcoin, or USD (EUR…) for what it was worth")
  const currency = (given ?? "USD").trim().toUpperCase()
  if (!CURRENCY_PATTERN.test(currency))
    throw new UsageError(`--currency must be a three-letter code such as USD, EUR or BTC (got "${currency}")`)
  return currency
}

function providerArg(args: Args): PaymentProvider {
  const text = (optionalText(args, "provider") ?? "paypal").trim().toLowerCase()
  if (!isPaymentProvider(text)) throw new UsageError(`--provider must be ${PAYMENT_PROVIDERS.join(" or ")} (got "${text}")`)
  return text
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

/** A day (YYYY-MM-DD, midnight UTC) or an instant with its offset; now when not given. Never in the future. */
function dateArg(args: Args, now: number): string {
  const text = optionalText(args, "date")?.trim()
  if (text === undefined) return new Date(now).toISOString()
  const ms = DAY.test(text) ? Date.parse(`${text}T00:00:00Z`) : INSTANT.test(text) ? Date.parse(text) : Number.NaN
  const real = !Number.isNaN(ms) && (!DAY.test(text) || new Date(ms).toISOString().startsWith(text))
  if (!real) throw new UsageError(`--date must be a day as YYYY-MM-DD or a time as YYYY-MM-DDTHH:MM:SSZ (got "${text}")`)
  if (ms > now) throw new UsageError(`--date must not be in the future (got "${text}")`)
  return new Date(ms).toISOString()
}
