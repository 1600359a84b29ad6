/**
 * `npm run bench`: time to first frame of our TV player page against a bare hls.js page (same
 * demo stream, same server), and how far behind live the low-latency player plays. It prints
 * figures; it passes or fails nothing.
 *
 * Each page is opened two ways, in a fresh browser context each time:
 * - arriving from another page, as a viewer does from the new-tab page, a bookmark or a link:
 *   both pages start in a new renderer process. This is the comparison that counts.
 * - from the blank tab a browser context starts with. A page without a Cross-Origin-Opener-Policy
 *   may reuse that tab's process; ours sends the header (it keeps other sites' windows from
 *   reaching into ours), so it starts a new process instead. Shown for completeness.
 *
 * Before those, the XMLTV import of a generated guide against a bare saxes pass over the same file
 * (see guideImportBench.ts), then the programme guide page with 200 channels against the same page
 * with the two demo channels (see guidePage.ts), the staff reports over 10,000 accounts and
 * 100,000 payments on SQLite and PostgreSQL (see reportsBench.ts), the server under load against
 * bare Fastify (cold start, API, heartbeats, sign-in bursts, memory, the staff connections view;
 * see serverBench.ts), on SQLite and, with --postgres, on PostgreSQL, and what /login loads and
 * how soon it paints under slow 4G (see loginPage.ts), the relay of an upstream LL-HLS channel
 * to many simulated viewers and in Chromium (see relayBench.ts), and ingest channels: glass to glass
 * from a real-time encoder pushing RTMP and SRT to Chromium's low-latency player, and what a live
 * channel costs in CPU and memory (see ingestBench.ts), the time-shift window: a start an hour back
 * against a live one and what the window's playlist costs (see timeshiftBench.ts), and what one client can make the server keep
 * (telemetry under the budgets, refused playlists from one /64) and the forgot-password answer's
 * time for registered and unknown addresses, on SQLite and with --postgres on PostgreSQL (see
 * storageBench.ts).
 *
 * Options: --iterations N (default 9), --latency-seconds S (default 20), --rtt MS (added round-trip
 * time for the time-to-first-frame pages, default 0: loopback; run it with 50 for the 50 ms row),
 * --no-build; --only guide|guide-page|reports|server|storage|login-page|relay|ingest|timeshift|player; --postgres URL
 * (the server and storage sections on PostgreSQL too); --storage-seconds S (20); --server-rounds N (3), --heartbeat-seconds S (60),
 * --heartbeat-rate PER_MINUTE (30000), --api-seconds S (10);
 * --relay-viewers N (200), --relay-seconds S (30), --relay-mbps M (3: the upstream's bitrate);
 * --guide-programmes N (default 100000), --guide-runs N (default 3), --guide-postgres URL (also
 * import into PostgreSQL, e.g. postgres://postgres@127.0.0.1:5432/test).
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { parseArgs } from "node:util"
import type { Browser } from "playwright-core"
import { buildServer } from "../../scripts/buildServer.ts"
import { admin, freePort, launchBrowser, startServer } from "../support/e2eHarness.ts"
import { startBarePage } from "./barePage.ts"
import { benchGuideImport } from "./guideImportBench.ts"
import { benchIngest } from "./ingestBench.ts"
import { benchLoginPage } from "./loginPage.ts"
import { benchRelay } from "./relayBench.ts"
import { benchReports } from "./reportsBench.ts"
import { benchServer } from "./serverBench.ts"
import { median, percentile, row } from "./stats.ts"
import { benchStorage } from "./storageBench.ts"
import { benchTimeshift } from "./timeshiftBench.ts"

const root = join(import.meta.dirname, "..", "..")
const { values: options } = parseArgs({
  options: {
    iterations: { type: "string", default: "9" },
    "latency-seconds": { type: "string", default: "20" },
    rtt: { type: "string", default: "0" },
    "no-build": { type: "boolean", default: false },
    only: { type: "string" },
    "guide-programmes": { type: "string", default: "100000" },
    "guide-runs": { type: "string", default: "3" },
    "guide-postgres": { type: "string" },
    "report-accounts": { type: "string", default: "10000" },
    "report-payments": { type: "string", default: "100000" },
    postgres: { type: "string" },
    "server-rounds": { type: "string", default: "3" },
    "heartbeat-seconds": { type: "string", default: "60" },
    "heartbeat-rate": { type: "string", default: "30000" },
    "api-seconds": { type: "string", default: "10" },
    "storage-seconds": { type: "string", default: "20" },
    "relay-viewers": { type: "string", default: "200" },
    "relay-seconds": { type: "string", default: "30" },
    "relay-mbps": { type: "string", default: "3" }
  }
})
const SECTIONS = ["guide", "guide-page", "reports", "server", "storage", "login-page", "relay", "ingest", "timeshift", "player"] as const
if (options.only !== undefined && !SECTIONS.some((section) => section === options.only))
  throw new Error(`--only takes ${SECTIONS.join(", ")}`)
const runs = (section: (typeof SECTIONS)[number]): boolean => options.only === undefined || options.only === section
const iterations = Number(options.iterations)
const latencySeconds = Number(options["latency-seconds"])
const rtt = Number(options.rtt)

if (runs("guide")) {
  const programmes = Number(options["guide-programmes"])
  await benchGuideImport({
    programmes,
    channels: Math.max(1, Math.round(programmes / 500)),
    runs: Number(options["guide-runs"]),
    postgresUrl: options["guide-postgres"]
  })
}
if (options.only === "guide") process.exit(0)

if (runs("reports")) {
  await benchReports({
    accounts: Number(options["report-accounts"]),
    payments: Number(options["report-payments"]),
    iterations: Math.max(iterations, 20)
  })
}
if (options.only === "reports") process.exit(0)

if (!options["no-build"]) {
  const build = spawnSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], {
    cwd: root,
    stdio: "inherit"
  })
  if (build.status !== 0) throw new Error("vite build failed")
  await buildServer()
}

if (runs("guide-page")) {
  const page = spawnSync(
    process.execPath,
    [join(import.meta.dirname, "guidePage.ts"), "--no-build", "--iterations", String(Math.min(iterations, 7))],
    {
      cwd: root,
      stdio: "inherit"
    }
  )
  if (page.status !== 0) throw new Error("the guide page bench failed")
}
if (options.only === "guide-page") process.exit(0)

if (runs("server")) {
  for (const postgresUrl of [undefined, options.postgres]) {
    await benchServer({
      postgresUrl,
      rounds: Number(options["server-rounds"]),
      heartbeatSeconds: Number(options["heartbeat-seconds"]),
      heartbeatRate: Number(options["heartbeat-rate"]),
      apiSeconds: Number(options["api-seconds"])
    })
    if (options.postgres === undefined) break
  }
}
if (options.only === "server") process.exit(0)

if (runs("storage")) {
  for (const postgresUrl of [undefined, options.postgres]) {
    await benchStorage({ postgresUrl, seconds: Number(options["storage-seconds"]) })
    if (options.postgres === undefined) break
  }
}
if (options.only === "storage") process.exit(0)

if (runs("login-page")) {
  const pageServer = await startServer()
  const pageBrowser = await launchBrowser()
  try {
    await benchLoginPage(pageBrowser, pageServer.url, join(root, "dist"), Math.min(iterations, 5))
  } finally {
    await pageBrowser.close()
    await pageServer.stop()
  }
}
if (options.only === "login-page") process.exit(0)

if (runs("relay")) {
  let relayBrowser: Browser | undefined
  try {
    await benchRelay({
      viewers: Number(options["relay-viewers"]),
      seconds: Number(options["relay-seconds"]),
      mbps: Number(options["relay-mbps"]),
      latencySeconds,
      browser: async () => {
        relayBrowser ??= await launchBrowser()
        return relayBrowser
      }
    })
  } finally {
    await relayBrowser?.close()
  }
}
if (options.only === "relay") process.exit(0)

if (runs("ingest")) {
  // a browser of its own for each protocol, which the bench closes
  await benchIngest({ seconds: 20, samples: 60, browser: launchBrowser })
}
if (options.only === "ingest") process.exit(0)

if (runs("timeshift")) {
  const shiftServer = await startServer()
  const shiftBrowser = await launchBrowser()
  try {
    await benchTimeshift({ server: shiftServer, browser: shiftBrowser, rounds: Math.max(3, Math.min(iterations, 7)) })
  } finally {
    await shiftBrowser.close()
    await shiftServer.stop()
  }
}
if (options.only === "timeshift") process.exit(0)

const EMAIL = "bench@example.com"
const PASSWORD = "bench password 1"
// Our origin lets only its PUBLIC_URL (and the Cast receivers) read its streams from another
// origin: the bare page, served from a port of its own, stands in for that address.
const barePort = await freePort()
const server = await startServer({ SIGN_IN_LIMIT_PER_MINUTE: "100000", PUBLIC_URL: `http://127.0.0.1:${barePort}` })
const bare = await startBarePage(barePort)
let browser: Browser | undefined

/** Where a measured page is opened from: another page, or the context's first blank tab. */
type Start = "another page" | "blank tab"
const NEUTRAL_PAGE = "data:text/html,<title>elsewhere</title>"

/** ms from navigation start to the first frame, as the page reports it in a data attribute */
const firstFrame = async (start: Start, url: string, selector: string, storage?: Parameters<Browser["newContext"]>[0]): Promise<number> => {
  if (browser === undefined) throw new Error("no browser")
  // a fresh context each time: nothing cached, for either page
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...storage })
  try {
    const page = await context.newPage()
    if (rtt > 0) {
      const cdp = await context.newCDPSession(page)
      await cdp.send("Network.enable")
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: rtt, downloadThroughput: -1, uploadThroughput: -1 })
    }
    if (start === "another page") await page.goto(NEUTRAL_PAGE)
    await page.goto(url)
    const handle = await page.waitForFunction((target) => document.querySelector(target)?.getAttribute("data-first-frame-ms"), selector, {
      timeout: 30_000
    })
    return Number(await handle.jsonValue())
  } finally {
    await context.close()
  }
}

try {
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, isMobile: false })
  })
  const { token } = (await login.json()) as { token: string }
  const signedIn = { storageState: { cookies: [], origins: [{ origin: server.url, localStorage: [{ name: "Token", value: token }] }] } }
  browser = await launchBrowser()

  // our origin opens a playlist with a grant of the session's own: the bare page gets one too, fresh each time
  const source = async (): Promise<string> => {
    const answer = (await (await fetch(`${server.url}/api/streams/all`, { headers: { token } })).json()) as { data: Array<{ src: string }> }
    return `${server.url}${answer.data[0]?.src ?? ""}`
  }
  // one untimed round each, so the server's and the OS's first-time costs land on neither side
  await firstFrame("another page", `${server.url}/player?default=0`, "[data-first-frame-ms]", signedIn)
  await firstFrame("another page", bare.url(await source()), "body")
  const starts: ReadonlyArray<Start> = ["another page", "blank tab"]
  const samples = new Map(starts.map((start) => [start, { ours: [] as Array<number>, bare: [] as Array<number> }]))
  for (let round = 0; round < iterations; round += 1) {
    for (const start of starts) {
      const side = samples.get(start)
      // alternating keeps drift in machine load from favouring one side
      side?.ours.push(await firstFrame(start, `${server.url}/player?default=0`, "[data-first-frame-ms]", signedIn))
      const signed = await source()
      side?.bare.push(await firstFrame(start, bare.url(signed), "body"))
    }
    process.stdout.write(".")
  }
  process.stdout.write("\n")

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...signedIn })
  const page = await context.newPage()
  await page.goto(`${server.url}/playersldp?default=0`)
  await page.waitForFunction(() => document.querySelector("[data-latency-ms]") !== null, undefined, { timeout: 30_000 })
  // stalls while sampling: a low distance bought with rebuffering would not be worth having
  await page.evaluate(() => {
    const counter = window as unknown as { stalls: number }
    counter.stalls = 0
    document.querySelector("video")?.addEventListener("waiting", () => (counter.stalls += 1))
  })
  const latencies: Array<number> = []
  const rates = new Set<number>()
  for (let sample = 0; sample < latencySeconds * 4; sample += 1) {
    await page.waitForTimeout(250)
    const [latency, rate] = await page.evaluate(() => [
      Number(document.querySelector("[data-latency-ms]")?.getAttribute("data-latency-ms")),
      document.querySelector("video")?.playbackRate ?? 1
    ])
    if (Number.isFinite(latency)) latencies.push(latency ?? 0)
    rates.add(rate ?? 1)
  }
  const stalls = await page.evaluate(() => (window as unknown as { stalls: number }).stalls)
  await context.close()

  console.log()
  for (const start of starts) {
    const { ours, bare: reference } = samples.get(start) ?? { ours: [], bare: [] }
    console.log(start === "another page" ? "Opened arriving from another page (counts):" : "Opened from the context's blank tab:")
    console.log(row(`time to first frame (ms), n=${iterations}${rtt > 0 ? `, +${rtt} ms RTT` : ""}`, ["median", "p90", "min"]))
    console.log(row("  our TV player page", [median(ours), percentile(ours, 0.9), Math.min(...ours)]))
    console.log(row("  bare hls.js page, defaults", [median(reference), percentile(reference, 0.9), Math.min(...reference)]))
    console.log(
      row("  ratio ours / bare (target <= 0.8)", [
        (median(ours) / median(reference)).toFixed(2),
        (percentile(ours, 0.9) / percentile(reference, 0.9)).toFixed(2),
        ""
      ])
    )
    console.log(`  samples: ours ${ours.join(" ")} | bare ${reference.join(" ")}`)
    console.log()
  }
  console.log(row(`low-latency player behind live (ms), ${latencySeconds} s`, ["median", "p95", "max"]))
  console.log(row("  data-latency-ms (target <= 2000)", [median(latencies), percentile(latencies, 0.95), Math.max(...latencies)]))
  console.log(`  stalls: ${stalls}; playback rates seen: ${[...rates].sort().join(", ")}`)
} finally {
  await browser?.close()
  await bare.close()
  await server.stop()
}
