/**
 * The staff reports at scale: 10,000 accounts and 100,000 payments over two years, then
 * `POST /api/adminreports/all` for this month and for all time, and the daily series of a month,
 * over HTTP against the real server; the baseline in the same run is an authenticated GET that
 * reads one row (`/api/player/token`). Runs on SQLite and, when it answers, on PostgreSQL.
 */
import type { AddressInfo } from "node:net"
import { defaultReportRange } from "../../src/domain/ReportRanges.ts"
import { hashPassword } from "../../src/server/account/passwords.ts"
import { buildApp } from "../../src/server/app.ts"
import { loadConfig } from "../../src/server/config.ts"
import type { Db } from "../../src/server/db/database.ts"
import { dialects } from "../support/dbHarness.ts"
import { median, percentile, row } from "./stats.ts"

export interface ReportsBenchOptions {
  readonly accounts: number
  readonly payments: number
  readonly iterations: number
}

const DAY_MS = 24 * 60 * 60 * 1000
const SPAN_DAYS = 730
export const STAFF = "reports-bench@example.com"
export const PASSWORD = "bench password 1"
const BATCH = 500

/** A deterministic spread of accounts and payments: the same data on every database. */
export async function seedReports(db: Db, options: Pick<ReportsBenchOptions, "accounts" | "payments">, now: number): Promise<void> {
  const kysely = db.kysely
  const staffHash = await hashPassword(PASSWORD)
  const iso = (ms: number) => new Date(ms).toISOString()
  await kysely
    .insertInto("users")
    .values({
      username: "staff",
      email: STAFF,
      password_hash: staffHash,
      invite_token: "staff-bench",
      is_staff: true,
      email_verified_at: iso(now - SPAN_DAYS * DAY_MS),
      created_at: iso(now - SPAN_DAYS * DAY_MS)
    })
    .execute()
  const start = now - SPAN_DAYS * DAY_MS
  for (let first = 0; first < options.accounts; first += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, options.accounts - first) }, (_, index) => {
      const n = first + index
      const joined = start + ((n * 7919) % SPAN_DAYS) * DAY_MS + (n % 86_400) * 1000
      return {
        username: `viewer${n}`,
        email: `viewer${n}@example.com`,
        password_hash: "x",
        invite_token: `bench-${n}`,
        // one in ten never verified
        email_verified_at: n % 10 === 9 ? null : iso(joined),
        created_at: iso(joined)
      }
    })
    await kysely.insertInto("users").values(rows).execute()
  }
  const ids = (await kysely.selectFrom("users").select("id").where("is_staff", "=", false).orderBy("id").execute()).map((r) => r.id)
  const perAccount = Math.ceil(options.payments / ids.length)
  for (let first = 0; first < options.payments; first += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, options.payments - first) }, (_, index) => {
      const n = first + index
      const account = Math.floor(n / perAccount)
      const month = n % perAccount
      // first payments spread over the span, the last ones reaching today
      const firstDay = (account * 7919) % Math.max(1, SPAN_DAYS - perAccount * 30)
      const paid = start + (firstDay + month * 30) * DAY_MS + (n % 3600) * 1000
      const btc = n % 9 === 0
      return {
        user_id: ids[account % ids.length] ?? null,
        paypal_transaction_id: btc ? null : `BENCH${n.toString().padStart(9, "0")}`,
        provider: btc ? ("btc" as const) : ("paypal" as const),
        price: btc ? 4.5 : 5,
        fee: btc ? 0 : 0.65,
        created_at: iso(paid),
        period_start: iso(paid),
        period_end: iso(paid + 30 * DAY_MS)
      }
    })
    await kysely.insertInto("payments").values(rows).execute()
  }
}

async function time(iterations: number, request: () => Promise<Response>): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < iterations + 3; i += 1) {
    const started = performance.now()
    const response = await request()
    await response.arrayBuffer()
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    // the first three warm the caches and the JIT
    if (i >= 3) samples.push(performance.now() - started)
  }
  return samples
}

export async function benchReports(options: ReportsBenchOptions): Promise<void> {
  console.log(
    `\nStaff reports: ${options.accounts.toLocaleString("en-US")} accounts, ${options.payments.toLocaleString("en-US")} payments, ${options.iterations} requests each, ms`
  )
  console.log(row("", ["median", "p90", "× baseline"]))
  for (const dialect of dialects) {
    const database = await dialect.create()
    const now = Date.now()
    const seeded = performance.now()
    await seedReports(database.db, options, now)
    const seedMs = performance.now() - seeded
    const config = loadConfig({
      DATA_DIR: database.dataDir,
      STATIC_DIR: database.dataDir,
      SIGN_IN_LIMIT_PER_MINUTE: "1000",
      API_LIMIT_PER_MINUTE: "100000"
    })
    const app = await buildApp({ config, db: database.db, now: Date.now, housekeeping: { firstAfterMs: DAY_MS } })
    try {
      await app.listen({ host: "127.0.0.1", port: 0 })
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
      const login = await fetch(`${url}/api/users/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: STAFF, password: PASSWORD, isMobile: false })
      })
      const { token } = (await login.json()) as { token: string }
      const post = (path: string, dates: { start: string; end: string }) => () =>
        fetch(`${url}${path}`, { method: "POST", headers: { token, "content-type": "application/json" }, body: JSON.stringify({ dates }) })
      const month = defaultReportRange(new Date(now))
      const allTime = { start: new Date(now - SPAN_DAYS * DAY_MS).toISOString().slice(0, 10), end: month.end }
      const thirtyDays = { start: new Date(now - 29 * DAY_MS).toISOString().slice(0, 10), end: month.end }
      const baseline = await time(options.iterations, () => fetch(`${url}/api/player/token`, { headers: { token } }))
      const measured: Array<[string, number[]]> = [
        ["reports, this month", await time(options.iterations, post("/api/adminreports/all", month))],
        ["reports, two years", await time(options.iterations, post("/api/adminreports/all", allTime))],
        ["daily series, 30 days", await time(options.iterations, post("/api/adminreports/daily", thirtyDays))],
        ["daily series, two years", await time(options.iterations, post("/api/adminreports/daily", allTime))]
      ]
      const base = median(baseline)
      console.log(`${dialect.name} (seeded in ${(seedMs / 1000).toFixed(1)} s)`)
      console.log(row("  baseline: GET /api/player/token", [base.toFixed(1), percentile(baseline, 0.9).toFixed(1), "1.0"]))
      for (const [label, samples] of measured) {
        console.log(
          row(`  ${label}`, [median(samples).toFixed(1), percentile(samples, 0.9).toFixed(1), (median(samples) / base).toFixed(1)])
        )
      }
    } finally {
      await app.close()
      await database.dispose()
    }
  }
  console.log("Target: POST /api/adminreports/all under 300 ms on both databases.")
}
