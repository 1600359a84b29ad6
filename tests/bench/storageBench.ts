/**
 * What one client can make the server keep, and what it costs, against the real server process
 * (`--only storage`): one account with ten sessions posting analytics and health beacons as fast
 * as it can (as many rows as the budgets let through, against what it sent: what would have been
 * kept without them), a host rotating through the addresses of its IPv6 /64 asking for playlists
 * without a grant (rows kept, answers, and the server's CPU per request), and the forgot-password
 * answer's time for registered and unknown addresses (interleaved, medians). The worst-case disk
 * use per account and day follows from the budgets and the bytes a row takes, measured here.
 */
import { stat } from "node:fs/promises"
import { join } from "node:path"
import { sql } from "kysely"
import { hashPassword } from "../../src/server/account/passwords.ts"
import { createSession } from "../../src/server/account/sessions.ts"
import { insertUser } from "../../src/server/account/usersRepo.ts"
import { openDatabase } from "../../src/server/db/database.ts"
import { TELEMETRY_BUDGETS } from "../../src/server/telemetry/telemetryQuotas.ts"
import { OUR_SERVER, scratchDatabase, startBenchServer } from "./benchServer.ts"
import { median } from "./stats.ts"

export interface StorageBenchOptions {
  readonly postgresUrl?: string | undefined
  /** How long the account posts as fast as it can. */
  readonly seconds: number
}

const SESSIONS = 10
const TIMING_PAIRS = 300
const day = (kind: "analytics" | "health"): number =>
  TELEMETRY_BUDGETS[kind].find((budget) => budget.per === "account" && budget.windowMs === 24 * 60 * 60 * 1000)?.max ?? Number.NaN

// every text at the longest the contract takes: the worst a client can make a row
const id64 = (n: number) => `${n}`.padStart(64, "x")
const analyticsBody = (n: number) =>
  JSON.stringify({
    session_id: id64(n),
    sitegroup_id: "streamhub",
    media_id: id64(1),
    site_id: id64(2),
    player_id: id64(3),
    video_type: "live",
    created: Date.now(),
    position: 60,
    player_version: id64(4),
    source: `/live/demo1/index.m3u8?${"s".repeat(2000)}`,
    category: "c".repeat(256),
    category_id: "1",
    autoplay: true,
    muted: true,
    customer_user_id: "u".repeat(256)
  })
const healthBody = (n: number) =>
  JSON.stringify({
    events: Array.from({ length: 50 }, (_, i) => ({
      session_id: id64(n),
      device_id: id64(i),
      version: id64(5),
      source: `/live/demo1/index.m3u8?${"s".repeat(2000)}`,
      page_url: `/player?${"p".repeat(2000)}`,
      ids: { media_id: id64(1), site_id: id64(2), sitegroup_id: id64(3), player_id: id64(4) },
      plugins: ["analytics", "health", "metering", "time-sync", "low-latency"],
      event: "timeupdate",
      current_time: i,
      client_time: Date.now(),
      adjusted_time: Date.now()
    }))
  })

export async function benchStorage(options: StorageBenchOptions): Promise<void> {
  const name = options.postgresUrl === undefined ? "SQLite" : "PostgreSQL"
  const scratch = await scratchDatabase(options.postgresUrl)
  const { dataDir, databaseUrl } = scratch
  // one proxy in front (loopback): each request says which client it is for
  const env: Record<string, string> = {
    ...scratch.env,
    TRUST_PROXY: "1",
    API_LIMIT_PER_MINUTE: "9999999",
    SIGN_IN_LIMIT_PER_MINUTE: "9999999"
  }
  const first = await startBenchServer(OUR_SERVER, env)
  await first.stop()
  const db = await openDatabase({ dataDir, databaseUrl })
  const server = await startBenchServer(OUR_SERVER, env)
  try {
    const now = Date.now()
    const passwordHash = await hashPassword("bench password 1")
    const abuser = await insertUser(db.kysely, {
      username: "abuser",
      email: "abuser@example.com",
      password_hash: passwordHash,
      invite_token: "abuser",
      email_verified_at: new Date(now).toISOString()
    })
    const sessions: Array<string> = []
    for (let n = 0; n < SESSIONS; n += 1) {
      sessions.push(await createSession(db.kysely, abuser.id, { isMobile: false, userAgent: "bench", ip: "127.0.0.1" }, now))
    }
    console.log(`\nStorage under abuse on ${name}: one account, ${SESSIONS} sessions, ${options.seconds} s as fast as it can`)

    const rows = async (table: "analytics_events" | "health_events"): Promise<number> =>
      Number(
        (
          await db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n
      )
    const bytes = async (table: "analytics_events" | "health_events"): Promise<number> => {
      if (databaseUrl !== undefined) {
        const { rows: sized } = await sql<{ size: string }>`select pg_total_relation_size(${table}::regclass) as size`.execute(db.kysely)
        return Number(sized[0]?.size ?? 0)
      }
      await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely)
      const { rows: pages } = await sql<{ pages: number }>`select count(*) as pages from dbstat where name = ${table}`.execute(db.kysely)
      return Number(pages[0]?.pages ?? 0) * 4096
    }
    const beforeRows = { analytics: await rows("analytics_events"), health: await rows("health_events") }
    const beforeBytes = { analytics: await bytes("analytics_events"), health: await bytes("health_events") }
    const sent = { analytics: 0, health: 0, analyticsRows: 0, healthRows: 0 }
    const until = performance.now() + options.seconds * 1000
    await Promise.all(
      sessions.flatMap((token, n) =>
        (["analytics", "health"] as const).map(async (kind) => {
          while (performance.now() < until) {
            const response = await fetch(
              `${server.url}${kind === "analytics" ? "/api/analytics/live/streamhub/ping" : "/api/health-events"}`,
              {
                method: "POST",
                headers: { "content-type": "application/json", token, "x-forwarded-for": `10.77.${n}.1` },
                body: kind === "analytics" ? analyticsBody(n) : healthBody(n)
              }
            )
            await response.arrayBuffer()
            if (kind === "analytics") {
              sent.analytics += 1
              sent.analyticsRows += 1
            } else {
              sent.health += 1
              sent.healthRows += 50
            }
          }
        })
      )
    )
    // what was acknowledged is written within moments
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const kept = {
      analytics: (await rows("analytics_events")) - beforeRows.analytics,
      health: (await rows("health_events")) - beforeRows.health
    }
    const grown = {
      analytics: (await bytes("analytics_events")) - beforeBytes.analytics,
      health: (await bytes("health_events")) - beforeBytes.health
    }
    const mb = (value: number) => (value / 1e6).toFixed(1)
    for (const kind of ["analytics", "health"] as const) {
      const sentRows = kind === "analytics" ? sent.analyticsRows : sent.healthRows
      const perRow = kept[kind] > 0 ? grown[kind] / kept[kind] : Number.NaN
      const dayRows = day(kind)
      // without budgets every row sent would have been kept, all day long
      const unbudgetedPerDay = (sentRows / options.seconds) * 86_400 * perRow
      const worstPerDay = dayRows * perRow
      console.log(
        `${kind}: sent ${sentRows} rows, kept ${kept[kind]} (${Math.round(perRow)} B a row at the longest texts); ` +
          `at most ${dayRows} rows = ${mb(worstPerDay)} MB a day per account, against ${mb(unbudgetedPerDay)} MB a day ` +
          `without budgets (${(worstPerDay / unbudgetedPerDay).toFixed(5)}x)`
      )
    }

    // a host rotating through its /64, asking for playlists without a grant
    const cpuBefore = (await server.probe()).cpuMs
    const flood = 3000
    const answers = new Map<number, number>()
    const started = performance.now()
    for (let start = 0; start < flood; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const n = start + i
          const response = await fetch(`${server.url}/live/demo1/index.m3u8`, {
            headers: { "x-forwarded-for": `2001:db8:77:1::${(n + 1).toString(16)}` }
          })
          await response.arrayBuffer()
          answers.set(response.status, (answers.get(response.status) ?? 0) + 1)
        })
      )
    }
    const floodMs = performance.now() - started
    const cpu = (await server.probe()).cpuMs - cpuBefore
    await new Promise((resolve) => setTimeout(resolve, 500))
    const unknownRows = Number(
      (
        await db.kysely
          .selectFrom("unknown_viewers")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n
    )
    console.log(
      `refused playlists from one /64: ${flood} asked at ${Math.round(flood / (floodMs / 1000))}/s, ` +
        `${answers.get(403) ?? 0} answered 403 and ${answers.get(429) ?? 0} answered 429, ${unknownRows} unknown-viewer row kept, ` +
        `${(cpu / flood).toFixed(3)} ms of server CPU a request`
    )

    // forgot password: registered and unknown addresses, interleaved, each from its own address
    const known: Array<string> = []
    for (let n = 0; n < TIMING_PAIRS; n += 1) {
      known.push(
        (
          await insertUser(db.kysely, {
            username: `known${n}`,
            email: `known${n}@example.com`,
            password_hash: passwordHash,
            invite_token: `known${n}`,
            email_verified_at: new Date(now).toISOString()
          })
        ).email
      )
    }
    const times = { known: [] as Array<number>, unknown: [] as Array<number> }
    for (let n = 0; n < TIMING_PAIRS; n += 1) {
      for (const kind of n % 2 === 0 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)) {
        const email = kind === "known" ? known[n] : `nobody${n}@example.com`
        const at = performance.now()
        const response = await fetch(`${server.url}/api/users/create-password-reset-token`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `10.88.${n >> 8}.${n & 255}` },
          body: JSON.stringify({ email })
        })
        await response.arrayBuffer()
        times[kind].push(performance.now() - at)
      }
    }
    const knownMs = median(times.known)
    const unknownMs = median(times.unknown)
    console.log(
      `forgot password, median of ${TIMING_PAIRS} each, interleaved: registered ${knownMs.toFixed(2)} ms, ` +
        `unknown ${unknownMs.toFixed(2)} ms (${(knownMs / unknownMs).toFixed(3)}x)`
    )
    const file = databaseUrl === undefined ? (await stat(join(dataDir, "app.db"))).size : undefined
    if (file !== undefined) console.log(`SQLite file after the bench: ${mb(file)} MB`)
  } finally {
    await server.stop()
    await db.close()
    await scratch.dispose()
  }
}
