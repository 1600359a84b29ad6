/**
 * The programme guide at scale: time from navigation to the first channel rows of
 * /stream-schedule with 200 channels of seven days, against the same page with the two demo
 * channels of a first start, both on one server in one run; then how smoothly 200 channels scroll.
 * It prints figures; it passes or fails nothing.
 *
 * The 200 channels arrive the way an operator brings a guide: an XMLTV file through the CLI's
 * `guide:import`, then `GET /api/scheduler/{day}` answering them.
 *
 * Usage: `npm run bench -- --only guide-page`, or `node tests/bench/guidePage.ts [--iterations N] [--channels N] [--no-build]`.
 */
import { spawnSync } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import type { Browser, BrowserContextOptions } from "playwright-core"
import { admin, launchBrowser, type RunningServer, startServer } from "../support/e2eHarness.ts"
import { median, percentile, row } from "./stats.ts"

const root = join(import.meta.dirname, "..", "..")
const { values: options } = parseArgs({
  options: {
    iterations: { type: "string", default: "7" },
    channels: { type: "string", default: "200" },
    "no-build": { type: "boolean", default: false }
  }
})
const iterations = Number(options.iterations)
const channelCount = Number(options.channels)
const DEMO_CHANNELS = 2
const WAIT_FOR_GUIDE_MS = 180_000

if (!options["no-build"]) {
  const build = spawnSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"], {
    cwd: root,
    stdio: "inherit"
  })
  if (build.status !== 0) throw new Error("vite build failed")
}

const EMAIL = "guide.bench@example.com"
const PASSWORD = "bench password 1"
const today = new Date().toISOString().slice(0, 10)

/** Channels the server answers for today (UTC, the zone Chromium runs in here). */
const channelsToday = async (server: RunningServer, token: string): Promise<number> => {
  const response = await fetch(`${server.url}/api/scheduler/${today}?tz=UTC`, { headers: { token } })
  if (!response.ok) return 0
  const body = (await response.json()) as { data?: { Items?: ReadonlyArray<unknown> } }
  return body.data?.Items?.length ?? 0
}

const waitForChannels = async (server: RunningServer, token: string, atLeast: number): Promise<void> => {
  const deadline = Date.now() + WAIT_FOR_GUIDE_MS
  let seen = 0
  while (Date.now() < deadline) {
    seen = await channelsToday(server, token)
    if (seen >= atLeast) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`GET /api/scheduler/${today} answered ${seen} channels, not ${atLeast}, within ${WAIT_FOR_GUIDE_MS / 1000} s`)
}

// Marks, from navigation start, when the first channel row is in the document.
const MARK_FIRST_ROWS = `new MutationObserver((_, observer) => {
  if (document.querySelector('[aria-label="Channels"] > li') === null) return
  window.__firstRowsMs = performance.now()
  observer.disconnect()
}).observe(document, { childList: true, subtree: true })`

const firstRows = async (browser: Browser, url: string, signedIn: BrowserContextOptions): Promise<number> => {
  // a fresh context each time: nothing cached
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...signedIn })
  try {
    await context.addInitScript(MARK_FIRST_ROWS)
    const page = await context.newPage()
    await page.goto(url)
    const handle = await page.waitForFunction(() => (window as unknown as { __firstRowsMs?: number }).__firstRowsMs, undefined, {
      timeout: 30_000
    })
    return Math.round(Number(await handle.jsonValue()))
  } finally {
    await context.close()
  }
}

/** Frame-to-frame times while the page scrolls from top to bottom at a steady pace. */
const scrollFrames = async (
  browser: Browser,
  url: string,
  signedIn: BrowserContextOptions
): Promise<{ frames: Array<number>; rows: number }> => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...signedIn })
  try {
    const page = await context.newPage()
    await page.goto(url)
    await page.locator('[aria-label="Channels"] > li').first().waitFor()
    return await page.evaluate(async () => {
      const frames: Array<number> = []
      let rows = 0
      let last = performance.now()
      for (let step = 0; step < 600 && window.scrollY + window.innerHeight < document.documentElement.scrollHeight - 2; step += 1) {
        window.scrollBy(0, 120)
        await new Promise((resolve) => requestAnimationFrame(resolve))
        const now = performance.now()
        frames.push(now - last)
        last = now
        rows = Math.max(rows, document.querySelectorAll('[aria-label="Channels"] > li').length)
      }
      return { frames, rows }
    })
  } finally {
    await context.close()
  }
}

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const LENGTHS = [30, 45, 60, 60, 90, 120]
const SHOWS = [
  ["Football", "Premier Division"],
  ["Tennis", "Harbour Open"],
  ["Cycling", "Tour of the Fjords"],
  ["Evening News", "Headlines and weather"],
  ["Motor Racing", "Qualifying"],
  ["Documentary", "Life under the ice"],
  ["Sports Tonight", "Results and interviews"],
  ["Film", "A quiet week in the hills"]
] as const

const xmltvTime = (ms: number): string => `${new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14)} +0000`
const escapeXml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/**
 * A large, plausible XMLTV guide: channels of back-to-back programmes of 30 to 120 minutes from
 * yesterday's midnight (UTC) for eight days, so every zone's seven days are full. Answers how many
 * programmes it wrote.
 */
const benchGuideXmltv = async (
  file: string,
  channels: number,
  now: number,
  write: (file: string, text: string) => Promise<void>
): Promise<{ readonly programmes: number }> => {
  const from = Math.floor(now / DAY) * DAY - DAY
  const until = from + 8 * DAY
  const parts: Array<string> = ['<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="guide bench">\n']
  const ids = Array.from({ length: channels }, (_, index) => `bench-${String(index + 1).padStart(3, "0")}.example`)
  for (const [index, id] of ids.entries()) {
    parts.push(`<channel id="${id}"><display-name>Bench Channel ${String(index + 1).padStart(3, "0")}</display-name></channel>\n`)
  }
  let programmes = 0
  ids.forEach((id, channel) => {
    let slot = channel
    for (let start = from; start < until; slot += 1) {
      const stop = start + (LENGTHS[(slot * 7 + channel) % LENGTHS.length] ?? 60) * MINUTE
      const [title, subtitle] = SHOWS[(slot * 3 + channel) % SHOWS.length] ?? SHOWS[0]
      parts.push(
        `<programme start="${xmltvTime(start)}" stop="${xmltvTime(stop)}" channel="${id}"><title>${escapeXml(`${title} ${slot % 40}`)}</title><sub-title>${escapeXml(subtitle)}</sub-title></programme>\n`
      )
      programmes += 1
      start = stop
    }
  })
  parts.push("</tv>\n")
  await write(file, parts.join(""))
  return { programmes }
}

const summarise = (label: string, samples: ReadonlyArray<number>): string =>
  row(label, [median(samples), percentile(samples, 0.9), Math.min(...samples)])

const server = await startServer({ SIGN_IN_LIMIT_PER_MINUTE: "100000" })
const xmltvDir = await mkdtemp(join(tmpdir(), "guide-bench-"))
let browser: Browser | undefined
try {
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, isMobile: false })
  })
  const { token } = (await login.json()) as { token: string }
  const signedIn = { storageState: { cookies: [], origins: [{ origin: server.url, localStorage: [{ name: "Token", value: token }] }] } }
  const url = `${server.url}/stream-schedule`
  browser = await launchBrowser()

  await waitForChannels(server, token, DEMO_CHANNELS)
  await firstRows(browser, url, signedIn)
  const baseline: Array<number> = []
  for (let round = 0; round < iterations; round += 1) baseline.push(await firstRows(browser, url, signedIn))

  const file = join(xmltvDir, "guide.xml")
  const { programmes } = await benchGuideXmltv(file, channelCount - DEMO_CHANNELS, Date.now(), writeFile)
  const importStarted = performance.now()
  await admin(server, "guide:import", "--file", file)
  const importMs = Math.round(performance.now() - importStarted)
  await waitForChannels(server, token, channelCount)
  const answer = await fetch(`${server.url}/api/scheduler/${today}?tz=UTC`, { headers: { token } })
  const answerBytes = (await answer.arrayBuffer()).byteLength

  await firstRows(browser, url, signedIn)
  const scaled: Array<number> = []
  for (let round = 0; round < iterations; round += 1) scaled.push(await firstRows(browser, url, signedIn))
  const { frames, rows } = await scrollFrames(browser, url, signedIn)

  console.log()
  console.log(
    `guide:import of ${channelCount - DEMO_CHANNELS} channels, ${programmes} programmes over 8 days: ${importMs} ms; today's answer ${(answerBytes / 1024).toFixed(0)} KiB`
  )
  console.log(row(`time to first rows (ms), n=${iterations}`, ["median", "p90", "min"]))
  console.log(summarise(`  ${DEMO_CHANNELS} channels (baseline)`, baseline))
  console.log(summarise(`  ${channelCount} channels (target < 1000)`, scaled))
  console.log(
    row(`  ratio ${channelCount} / ${DEMO_CHANNELS}`, [
      (median(scaled) / median(baseline)).toFixed(2),
      (percentile(scaled, 0.9) / percentile(baseline, 0.9)).toFixed(2),
      ""
    ])
  )
  console.log(`  samples: ${DEMO_CHANNELS} channels ${baseline.join(" ")} | ${channelCount} channels ${scaled.join(" ")}`)
  console.log()
  console.log(row(`scrolling ${channelCount} channels, ${frames.length} frames (ms)`, ["median", "p95", "max"]))
  console.log(row("  frame time", [median(frames).toFixed(1), percentile(frames, 0.95).toFixed(1), Math.max(...frames).toFixed(1)]))
  console.log(`  frames over 50 ms: ${frames.filter((frame) => frame > 50).length}; most channel rows in the document at once: ${rows}`)
} finally {
  await browser?.close()
  await server.stop()
  await rm(xmltvDir, { recursive: true, force: true })
}
