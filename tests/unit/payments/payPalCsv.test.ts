import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { isIncomingPaymentType, PayPalCsvError, readPayPalActivity } from "../../../src/server/payments/payPalCsv.ts"
import { PAYPAL_HEADER, payment, payPalCsv } from "../../server/payments/fixtures/payPalExport.ts"

const FIXTURE = readFileSync(join(import.meta.dirname, "../../server/payments/fixtures/paypal-activity.csv"), "utf8")

const failure = (text: string, options: Parameters<typeof readPayPalActivity>[1] = {}): { line: number; reason: string } => {
  try {
    readPayPalActivity(text, options)
  } catch (error) {
    if (error instanceof PayPalCsvError) return { line: error.line, reason: error.reason }
    throw error
  }
  throw new Error("the file was read")
}

describe("readPayPalActivity", () => {
  it("reads the completed incoming payments of an export and counts the rows it passes over", () => {
    const activity = readPayPalActivity(FIXTURE)
    expect(activity.payments).toEqual([
      {
        line: 2,
        transactionId: "5TY05013RG002845M",
        paidAt: "2026-11-23T09:15:42.000Z",
        email: "alice@example.com",
        gross: 5,
        fee: 0.65,
        currency: "USD"
      },
      {
        line: 3,
        transactionId: "8MC585209K746392H",
        paidAt: "2026-11-21T17:02:11.000Z",
        email: "bob.builder@example.com",
        gross: 1234.5,
        fee: 35.15,
        currency: "EUR"
      },
      {
        line: 4,
        transactionId: "3GG279541U471931P",
        paidAt: "2026-11-20T06:45:00.000Z",
        email: "carol@example.com",
        gross: 1500,
        fee: 84,
        currency: "JPY"
      },
      {
        line: 9,
        transactionId: "6HX41185JD9021544",
        paidAt: "2026-11-16T10:11:11.000Z",
        email: "ghost@example.com",
        gross: 5,
        fee: 0.65,
        currency: "USD"
      },
      {
        line: 11,
        transactionId: "1AB23456CD7890123",
        paidAt: "2026-10-23T08:15:42.000Z",
        email: "alice@example.com",
        gross: 5,
        fee: 0.65,
        currency: "USD"
      }
    ])
    expect(Object.fromEntries(activity.skipped)).toEqual({
      Pending: 1,
      Refunded: 1,
      Denied: 1,
      "completed Payment Refund": 1,
      "completed General Currency Conversion": 1
    })
  })

  it("reads quoted fields with commas, quotes and line breaks, with or without a BOM, with LF or CRLF", () => {
    const rows = [payment({ Name: 'O\'Brien, "Pat"', Note: "line one\nline two, with a comma", "Item Title": 'Month, "HD"' })]
    for (const options of [{}, { bom: false }, { eol: "\n" }, { bom: false, eol: "\n" }]) {
      const { payments } = readPayPalActivity(payPalCsv(rows, options))
      expect(
        payments.map((p) => [p.transactionId, p.gross]),
        JSON.stringify(options)
      ).toEqual([["1AB23456CD7890123", 5]])
    }
  })

  it("reads the header whatever its case and spacing, and needs only the columns it reads", () => {
    const text = [
      "DATE, Time,Time Zone,type,STATUS,Currency, Gross ,Fee,From Email Address,Transaction ID",
      "23/11/2026,10:15:42,PST,Subscription Payment,Completed,USD,5.00,-0.65,alice@example.com,1AB23456CD7890123",
      ""
    ].join("\n")
    expect(readPayPalActivity(text).payments).toEqual([
      {
        line: 2,
        transactionId: "1AB23456CD7890123",
        paidAt: "2026-11-23T18:15:42.000Z",
        email: "alice@example.com",
        gross: 5,
        fee: 0.65,
        currency: "USD"
      }
    ])
  })

  it("keeps the currency of each payment and the size of amounts in any of them", () => {
    const { payments } = readPayPalActivity(
      payPalCsv([
        payment({ Currency: "EUR", Gross: "1.234,50", Fee: "-35,15", "Transaction ID": "EUR0000000000001" }),
        payment({ Currency: "jpy", Gross: "12,000", Fee: "-480", "Transaction ID": "JPY0000000000001" }),
        payment({ Currency: "GBP", Gross: "4.99", Fee: "", "Transaction ID": "GBP0000000000001" })
      ])
    )
    expect(payments.map((p) => [p.currency, p.gross, p.fee])).toEqual([
      ["EUR", 1234.5, 35.15],
      ["JPY", 12000, 480],
      ["GBP", 4.99, 0]
    ])
  })

  it("passes over pending, refunded and denied rows, refunds, money sent and conversions", () => {
    const { payments, skipped } = readPayPalActivity(
      payPalCsv([
        payment({ Status: "Pending", Gross: "not read" }),
        payment({ Status: "Refunded" }),
        payment({ Status: "Denied" }),
        payment({ Status: "Reversed" }),
        payment({ Type: "Payment Refund", Gross: "-5.00", Fee: "0.15", "Transaction ID": "REFUND00000000001" }),
        payment({ Type: "Express Checkout Payment", Gross: "-12.00", "Transaction ID": "SENT000000000001" }),
        payment({ Type: "General Currency Conversion", Gross: "4.20", "Transaction ID": "CONV000000000001" }),
        payment({ Type: "Payment Received", "Balance Impact": "Memo", "Transaction ID": "MEMO000000000001" }),
        payment({ Type: "Payment Received", Gross: "0.00", "Transaction ID": "ZERO000000000001" })
      ])
    )
    expect(payments).toEqual([])
    // each reason named: a status, or a completed row's type
    expect(Object.fromEntries(skipped)).toEqual({
      Pending: 1,
      Refunded: 1,
      Denied: 1,
      Reversed: 1,
      "completed Payment Refund": 1,
      "completed Express Checkout Payment, no money in": 1,
      "completed General Currency Conversion": 1,
      "completed Payment Received, no money in": 2
    })
  })

  it("reads a payer PayPal knows by an address sign-up refuses, with an internationalised domain in ASCII", () => {
    const { payments } = readPayPalActivity(
      payPalCsv([
        payment({ "From Email Address": "Émile@example.com", "Transaction ID": "UNICODE000000001" }),
        payment({ "From Email Address": "dana@Bücher.de", "Transaction ID": "UNICODE000000002" })
      ])
    )
    expect(payments.map((p) => p.email)).toEqual(["émile@example.com", "dana@xn--bcher-kva.de"])
  })

  it("counts incoming payments of every kind PayPal names", () => {
    for (const type of [
      "Subscription Payment",
      "Payment Received",
      "Express Checkout Payment",
      "Website Payment",
      "Mobile Payment",
      "Web Accept Payment Received"
    ]) {
      expect(isIncomingPaymentType(type), type).toBe(true)
    }
    for (const type of [
      "Payment Refund",
      "Payment Reversal",
      "General Currency Conversion",
      "General Withdrawal",
      "Chargeback",
      "Payment Sent"
    ]) {
      expect(isIncomingPaymentType(type), type).toBe(false)
    }
  })

  it("reads the order of the file's dates from a day above 12, or as asked", () => {
    const us = payPalCsv([
      payment({ Date: "11/23/2026", "Transaction ID": "US00000000000001" }),
      payment({ Date: "11/05/2026", "Transaction ID": "US00000000000002" })
    ])
    expect(readPayPalActivity(us).payments.map((p) => p.paidAt.slice(0, 10))).toEqual(["2026-11-23", "2026-11-05"])
    const gb = payPalCsv([
      payment({ Date: "23/11/2026", "Transaction ID": "GB00000000000001" }),
      payment({ Date: "05/11/2026", "Transaction ID": "GB00000000000002" })
    ])
    expect(readPayPalActivity(gb).payments.map((p) => p.paidAt.slice(0, 10))).toEqual(["2026-11-23", "2026-11-05"])
    const iso = payPalCsv([payment({ Date: "2026-11-05", TimeZone: "UTC", Time: "08:00:00" })])
    expect(readPayPalActivity(iso).payments.map((p) => p.paidAt)).toEqual(["2026-11-05T08:00:00.000Z"])
    const ambiguous = payPalCsv([payment({ Date: "05/11/2026", TimeZone: "UTC", Time: "08:00:00" })])
    expect(readPayPalActivity(ambiguous, { dateFormat: "mdy" }).payments.map((p) => p.paidAt)).toEqual(["2026-05-11T08:00:00.000Z"])
    expect(readPayPalActivity(ambiguous, { dateFormat: "dmy" }).payments.map((p) => p.paidAt)).toEqual(["2026-11-05T08:00:00.000Z"])
  })

  it("takes a day above 12 in a row it passes over as evidence too", () => {
    const text = payPalCsv([
      payment({ Status: "Pending", Date: "11/30/2026" }),
      payment({ Date: "11/05/2026", TimeZone: "UTC", Time: "00:00:00" })
    ])
    expect(readPayPalActivity(text).payments.map((p) => p.paidAt)).toEqual(["2026-11-05T00:00:00.000Z"])
  })
})

describe("a file that cannot be imported", () => {
  it("names the line and the reason", () => {
    const cases: Array<[string, { line: number; reason: string }]> = [
      ["", { line: 1, reason: "the file is empty" }],
      ["\uFEFF", { line: 1, reason: "the file is empty" }],
      [
        payPalCsv([payment()], { header: PAYPAL_HEADER.filter((name) => name !== "Transaction ID" && name !== "Gross") }),
        { line: 1, reason: 'the header has no "Gross", "Transaction ID" columns: not a PayPal activity export' }
      ],
      ["Name,Amount\r\nAlice,5\r\n", { line: 1, reason: expect.stringContaining("not a PayPal activity export") }],
      ["Name,Amount\r\n", { line: 1, reason: expect.stringContaining("not a PayPal activity export") }],
      [
        payPalCsv([payment(), payment({ Gross: "five", "Transaction ID": "BAD0000000000001" })]),
        { line: 3, reason: 'Gross "five" is not an amount' }
      ],
      [payPalCsv([payment({ Fee: "-0,6,5" })]), { line: 2, reason: 'Fee "-0,6,5" is not an amount' }],
      [payPalCsv([payment({ Date: "31/02/2026" })]), { line: 2, reason: 'Date "31/02/2026" is not a date written DD/MM/YYYY' }],
      [payPalCsv([payment({ Date: "yesterday" })]), { line: 2, reason: 'Date "yesterday" is not a date written YYYY-MM-DD' }],
      [payPalCsv([payment({ Time: "25:00:00" })]), { line: 2, reason: 'Time "25:00:00" is not a time of day' }],
      [payPalCsv([payment({ TimeZone: "Mars" })]), { line: 2, reason: 'TimeZone "Mars" is not a time zone this import knows' }],
      [payPalCsv([payment({ "From Email Address": "" })]), { line: 2, reason: "a completed payment without a From Email Address" }],
      [
        payPalCsv([payment({ "From Email Address": "alice at example" })]),
        { line: 2, reason: 'From Email Address "alice at example" is not an email address' }
      ],
      [payPalCsv([payment({ "Transaction ID": "" })]), { line: 2, reason: "a completed payment without a Transaction ID" }],
      [payPalCsv([payment({ Currency: "$" })]), { line: 2, reason: 'Currency "$" is not a currency code such as USD' }],
      [
        payPalCsv([payment({ Date: "05/11/2026" }), payment({ Date: "06/11/2026", "Transaction ID": "AMB0000000000002" })]),
        { line: 2, reason: 'every date in the file could be DD/MM/YYYY or MM/DD/YYYY ("05/11/2026"): give --date-format dmy or mdy' }
      ],
      [
        payPalCsv([payment({ Date: "23/11/2026" }), payment({ Status: "Pending", Date: "11/30/2026" })]),
        { line: 3, reason: 'the date "11/30/2026" is written in another order than "23/11/2026" on line 2' }
      ]
    ]
    for (const [text, expected] of cases) expect(failure(text), text.slice(0, 200)).toEqual(expected)
  })

  it("names the line of a row that does not fit the header, or a quote never closed", () => {
    const good = payPalCsv([payment(), payment({ "Transaction ID": "SECOND0000000001" })], { bom: false, eol: "\n" })
    const lines = good.split("\n")
    const short = [...lines.slice(0, 2), lines[2]?.replace(/,"[^"]*"$/, ""), ""].join("\n")
    expect(failure(short)).toEqual({ line: 3, reason: "the row has 40 fields where the header has 41" })
    const unclosed = [lines[0], lines[1], '"23/11/2026,"10:00:00"', ""].join("\n")
    expect(failure(unclosed).reason).toMatch(/quote/)
  })

  it("lets a malformed amount or date pass in rows it does not import", () => {
    const text = payPalCsv([payment(), payment({ Status: "Pending", Gross: "???", Date: "soon", "Transaction ID": "" })])
    expect(readPayPalActivity(text).payments).toHaveLength(1)
  })
})
