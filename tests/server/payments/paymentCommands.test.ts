import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { recordPayment } from "../../../src/server/payments/recordPayments.ts"
import { useAdmin } from "../../support/cliHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { PASSWORD } from "../../support/testServer.ts"
import { payment, payPalCsv } from "./fixtures/payPalExport.ts"

const FIXTURE = join(import.meta.dirname, "fixtures", "paypal-activity.csv")
const NOW = Date.UTC(2026, 11, 1, 12, 0, 0)

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "streamhub-payments-"))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const file = async (name: string, text: string): Promise<string> => {
  const path = join(dir, name)
  await writeFile(path, text)
  return path
}

describe.each(dialects)("payment:import and payment:add ($name)", (dialect) => {
  const cli = useAdmin(dialect)
  const admin = async (...argv: string[]) => {
    const lines: string[] = []
    const code = await runAdmin(argv, { config: cli.config, out: (text) => lines.push(text), db: cli.database.db, now: () => NOW })
    return { code, output: lines.join("\n") }
  }
  const users = (...emails: string[]) => Promise.all(emails.map((email) => admin("user:create", "--email", email, "--password", PASSWORD)))
  const payments = () =>
    cli.database.db.kysely
      .selectFrom("payments")
      .innerJoin("users", "users.id", "payments.user_id")
      .select([
        "users.email",
        "paypal_transaction_id",
        "provider",
        "price",
        "fee",
        "currency",
        "payments.created_at",
        "period_start",
        "period_end"
      ])
      .orderBy("payments.id")
      .execute()

  it("imports an export's completed payments once, chaining each payer's months, and names payers without an account", async () => {
    await users("alice@example.com", "bob.builder@example.com", "carol@example.com")
    const first = await admin("payment:import", "--file", FIXTURE)
    expect(first).toEqual({
      code: 0,
      output: [
        `${FIXTURE}: imported 4, already present 0, skipped 5 rows, 1 payment from unknown payers`,
        "Skipped rows: 1 Pending, 1 Refunded, 1 completed Payment Refund, 1 Denied, 1 completed General Currency Conversion",
        "Unknown payers, not imported (create their accounts or correct their emails, then import the file again):",
        "  ghost@example.com: 1 payment"
      ].join("\n")
    })
    expect(await payments()).toEqual([
      {
        email: "alice@example.com",
        paypal_transaction_id: "1AB23456CD7890123",
        provider: "paypal",
        price: 5,
        fee: 0.65,
        currency: "USD",
        created_at: "2026-10-23T08:15:42.000Z",
        period_start: "2026-10-23T08:15:42.000Z",
        period_end: "2026-11-23T08:15:42.000Z"
      },
      {
        email: "carol@example.com",
        paypal_transaction_id: "3GG279541U471931P",
        provider: "paypal",
        price: 1500,
        fee: 84,
        currency: "JPY",
        created_at: "2026-11-20T06:45:00.000Z",
        period_start: "2026-11-20T06:45:00.000Z",
        period_end: "2026-12-20T06:45:00.000Z"
      },
      {
        email: "bob.builder@example.com",
        paypal_transaction_id: "8MC585209K746392H",
        provider: "paypal",
        price: 1234.5,
        fee: 35.15,
        currency: "EUR",
        created_at: "2026-11-21T17:02:11.000Z",
        period_start: "2026-11-21T17:02:11.000Z",
        period_end: "2026-12-21T17:02:11.000Z"
      },
      {
        email: "alice@example.com",
        paypal_transaction_id: "5TY05013RG002845M",
        provider: "paypal",
        price: 5,
        fee: 0.65,
        currency: "USD",
        created_at: "2026-11-23T09:15:42.000Z",
        period_start: "2026-11-23T09:15:42.000Z",
        period_end: "2026-12-23T09:15:42.000Z"
      }
    ])

    const again = await admin("payment:import", "--file", FIXTURE)
    expect(again.code).toBe(0)
    expect(again.output.split("\n")[0]).toBe(`${FIXTURE}: imported 0, already present 4, skipped 5 rows, 1 payment from unknown payers`)
    expect(await payments()).toHaveLength(4)

    // the payer gets an account: importing the same file again brings in only that payment
    await users("ghost@example.com")
    const third = await admin("payment:import", "--file", FIXTURE)
    expect(third.output).toBe(
      `${FIXTURE}: imported 1, already present 4, skipped 5 rows, 0 payments from unknown payers\n` +
        "Skipped rows: 1 Pending, 1 Refunded, 1 completed Payment Refund, 1 Denied, 1 completed General Currency Conversion"
    )
    expect(await payments()).toHaveLength(5)
  })

  it("chains a payment paid while months are still ahead onto their end", async () => {
    await users("early@example.com")
    const text = payPalCsv([
      payment({
        Date: "2026-02-10",
        Time: "00:00:00",
        TimeZone: "UTC",
        "From Email Address": "Early@Example.com",
        "Transaction ID": "EARLY00000000002"
      }),
      payment({
        Date: "2026-01-31",
        Time: "00:00:00",
        TimeZone: "UTC",
        "From Email Address": "early@example.com",
        "Transaction ID": "EARLY00000000001"
      })
    ])
    expect((await admin("payment:import", "--file", await file(`early-${dialect.name}.csv`, text))).code).toBe(0)
    expect((await payments()).map((row) => [row.period_start, row.period_end])).toEqual([
      ["2026-01-31T00:00:00.000Z", "2026-02-28T00:00:00.000Z"],
      ["2026-02-28T00:00:00.000Z", "2026-03-28T00:00:00.000Z"]
    ])
    const added = await admin("payment:add", "--email", "early@example.com", "--amount", "5", "--date", "2026-03-01")
    expect(added).toEqual({
      code: 0,
      output: "Recorded $5 from early@example.com (paypal): paid from 2026-03-28 00:00 UTC until 2026-04-28 00:00 UTC."
    })
  })

  it("changes nothing when a completed payment cannot be read, and says where", async () => {
    await users("alice@example.com")
    const text = payPalCsv([payment(), payment({ Gross: "five", "Transaction ID": "BAD0000000000001" })])
    const path = await file(`bad-${dialect.name}.csv`, text)
    expect(await admin("payment:import", "--file", path)).toEqual({
      code: 1,
      output: `payment:import: ${path}, line 3: Gross "five" is not an amount. Nothing was imported.`
    })
    const layout = await file(`layout-${dialect.name}.csv`, "Name,Amount\nAlice,5\n")
    expect(await admin("payment:import", "--file", layout)).toMatchObject({
      code: 1,
      output: expect.stringContaining(`${layout}, line 1: the header has no "Date", "Type", "Status"`)
    })
    expect(await admin("payment:import", "--file", join(dir, "missing.csv"))).toMatchObject({
      code: 1,
      output: expect.stringContaining("no such file")
    })
    expect(await payments()).toEqual([])
  })

  it("asks for the date order when every date reads both ways", async () => {
    await users("alice@example.com")
    const path = await file(
      `ambiguous-${dialect.name}.csv`,
      payPalCsv([payment({ Date: "05/11/2026", TimeZone: "UTC", Time: "10:00:00" })])
    )
    expect(await admin("payment:import", "--file", path)).toMatchObject({
      code: 1,
      output: expect.stringContaining("give --date-format dmy or mdy")
    })
    expect(await admin("payment:import", "--file", path, "--date-format", "ddmm")).toMatchObject({
      code: 2,
      output: expect.stringContaining("--date-format must be one of auto, dmy, mdy, ymd")
    })
    expect((await admin("payment:import", "--file", path, "--date-format", "mdy")).code).toBe(0)
    expect((await payments()).map((row) => row.created_at)).toEqual(["2026-05-11T10:00:00.000Z"])
  })

  it("refuses unusable payment:add arguments with exit code 2, and an unknown account or a recorded id with 1", async () => {
    await users("bitcoin@example.com")
    const base = ["--email", "bitcoin@example.com", "--amount", "5"]
    const refused: Array<[string[], string]> = [
      [["--email", "nope", "--amount", "5"], "--email: Enter a valid email address."],
      [["--amount", "5"], "--email is required"],
      [["--email", "bitcoin@example.com"], "--amount is required"],
      ...["0", "abc", "1e3", "5,00", "0.123456789", "2000000"].map((amount): [string[], string] => [
        ["--email", "bitcoin@example.com", "--amount", amount],
        "--amount must be a number more than 0"
      ]),
      [["--email", "bitcoin@example.com", "--amount=-5"], "--amount must be a number more than 0"],
      [[...base, "--fee=-1"], "--fee must be a number from 0"],
      [[...base, "--fee", "6"], "--fee must not be more than --amount"],
      [[...base, "--provider", "stripe"], "--provider must be paypal or btc"],
      [[...base, "--currency", "DOLLARS"], "--currency must be a three-letter code"],
      [[...base, "--provider", "btc"], "--currency is required with --provider btc: BTC for the amount in bitcoin, or USD"],
      [[...base, "--date", "2026-02-30"], "--date must be a day as YYYY-MM-DD"],
      [[...base, "--date", "yesterday"], "--date must be a day as YYYY-MM-DD"],
      [[...base, "--date", "2026-12-02"], "--date must not be in the future"],
      [[...base, "--id", "has spaces"], "--id must be the provider's transaction id"]
    ]
    for (const [argv, message] of refused) {
      const result = await admin("payment:add", ...argv)
      expect(result, argv.join(" ")).toMatchObject({ code: 2, output: expect.stringContaining(message) })
      expect(result.output).toContain("Usage: npm run admin -- payment:add --email E --amount A")
    }
    expect(await admin("payment:add", "--email", "ghost@example.com", "--amount", "5")).toMatchObject({
      code: 1,
      output: expect.stringContaining("No account with email ghost@example.com")
    })

    const added = await admin(
      "payment:add",
      "--email",
      "Bitcoin@Example.com",
      "--amount",
      "0.00012",
      "--currency",
      "btc",
      "--provider",
      "BTC",
      "--id",
      "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16",
      "--date",
      "2026-11-30T18:00:00+01:00"
    )
    expect(added).toEqual({
      code: 0,
      output:
        "Recorded BTC\u00a00.00012 from bitcoin@example.com (btc, id f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16): paid from 2026-11-30 17:00 UTC until 2026-12-30 17:00 UTC."
    })
    expect(
      await admin(
        "payment:add",
        "--email",
        "bitcoin@example.com",
        "--amount",
        "5",
        "--id",
        "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"
      )
    ).toMatchObject({ code: 1, output: expect.stringContaining("is recorded already") })
    expect(await admin("payment:add", "--email", "bitcoin@example.com", "--amount", "4.99", "--fee", "0.45")).toEqual({
      code: 0,
      output: "Recorded $4.99 from bitcoin@example.com (paypal): paid from 2026-12-30 17:00 UTC until 2027-01-30 17:00 UTC."
    })
    expect(
      (await payments()).map((row) => [row.provider, row.price, row.fee, row.currency, row.paypal_transaction_id, row.created_at])
    ).toEqual([
      ["btc", 0.00012, 0, "BTC", "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16", "2026-11-30T17:00:00.000Z"],
      ["paypal", 4.99, 0.45, "USD", null, new Date(NOW).toISOString()]
    ])
  })

  it("counts a payment added by hand as already present when an export brings it too", async () => {
    await users("alice@example.com")
    expect(
      (await admin("payment:add", "--email", "alice@example.com", "--amount", "5", "--id", "1AB23456CD7890123", "--date", "2026-10-23"))
        .code
    ).toBe(0)
    const path = await file(`overlap-${dialect.name}.csv`, payPalCsv([payment({ Date: "23/10/2026" }), payment({ Date: "23/10/2026" })]))
    expect((await admin("payment:import", "--file", path)).output).toBe(
      `${path}: imported 0, already present 2, skipped 0 rows, 0 payments from unknown payers`
    )
  })

  it("never gives one account overlapping months, however many payments are recorded at once", async () => {
    await users("busy@example.com")
    const user = await cli.database.db.kysely
      .selectFrom("users")
      .select("id")
      .where("email", "=", "busy@example.com")
      .executeTakeFirstOrThrow()
    const at = "2026-11-01T00:00:00.000Z"
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        recordPayment(cli.database.db.kysely, user.id, {
          email: "busy@example.com",
          transactionId: `RACE${i}000000000000`,
          provider: "paypal",
          price: 5,
          fee: 0,
          currency: "USD",
          paidAt: at
        })
      )
    )
    const periods = (await payments())
      .map((row) => ({ start: row.period_start ?? "", end: row.period_end ?? "" }))
      .sort((a, b) => a.start.localeCompare(b.start))
    expect(periods.map(({ start }) => start.slice(0, 10))).toEqual([
      "2026-11-01",
      "2026-12-01",
      "2027-01-01",
      "2027-02-01",
      "2027-03-01",
      "2027-04-01"
    ])
    for (const [i, { start }] of periods.slice(1).entries()) expect(start).toBe(periods[i]?.end)
  })
})
