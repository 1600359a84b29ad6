/**
 * `npm run bench -- --only timeshift`: the time-shift window of a demo channel (4 hours).
 * - Time to the first frame of our TV player page opened live (`/player?stream=ID`) against the
 *   same page opened an hour back (`&from=`, what "Start from the beginning" and the guide's
 *   "Watch from the start" open), interleaved rounds, a fresh browser context each time.
 * - What the window's playlist costs: its size whole, gzipped and as a delta update, and the
 *   time to write it.
 * It prints figures; it passes or fails nothing.
 */
import { get } from "node:http"
import { gunzipSync } from "node:zlib"
import type { Browser } from "playwright-core"
import { WindowIndex } from "../../src/server/feeds/timeshiftIndex.ts"
import { type LiveSegment, livePlaylist } from "../../src/server/origin/livePlaylist.ts"
import { admin, type RunningServer } from "../support/e2eHarness.ts"
import { median, percentile, row } from "./stats.ts"

export interface TimeshiftBenchOptions {
  readonly server: RunningServer
  readonly browser: Browser
  readonly rounds: number
}

const EMAIL = "timeshift-bench@example.com"
const PASSWORD = "bench password 1"
const HOUR_MS = 3_600_000

/** The bytes as sent, not decompressed (fetch would). */
const rawGet = (url: string, headers: Record<string, string>): Promise<{ encoding: string | undefined; body: Buffer }> =>
  new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }))
      response.on("error", reject)
    }).on("error", reject)
  })

const firstFrame = async (browser: Browser, url: string, token: string, origin: string): Promise<number> => {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: "Token", value: token }] }] }
  })
  try {
    const page = await context.newPage()
    await page.goto("data:text/html,<title>elsewhere</title>")
    await page.goto(url)
    const handle = await page.waitForFunction(
      () => document.querySelector("[data-first-frame-ms]")?.getAttribute("data-first-frame-ms"),
      undefined,
      {
        timeout: 30_000
      }
    )
    return Number(await handle.jsonValue())
  } finally {
    await context.close()
  }
}

/** The heap one window index takes per segment, over `count` segments (names as the feeds write them). */
const indexBytesPerSegment = (count: number): number => {
  const T0 = Date.UTC(2026, 5, 1, 18)
  const given = Array.from({ length: count }, (_, sequence) => ({
    sequence,
    duration: 2,
    programDateTime: T0 + sequence * 2000,
    discontinuity: false,
    name: `m1abcdef012345-${sequence}.m4s`,
    map: "m1abcdef012345-init1.mp4"
  }))
  const collect = (globalThis as { gc?: () => void }).gc
  const samples: Array<number> = []
  for (let round = 0; round < 5; round += 1) {
    collect?.()
    const before = process.memoryUsage().heapUsed
    const index = new WindowIndex()
    for (const each of given) index.append(each)
    collect?.()
    samples.push((process.memoryUsage().heapUsed - before) / index.size)
  }
  return median(samples)
}

export async function benchTimeshift({ server, browser, rounds }: TimeshiftBenchOptions): Promise<void> {
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, isMobile: false })
  })
  const { token } = (await login.json()) as { token: string }
  const streams = (await (await fetch(`${server.url}/api/streams/all`, { headers: { token } })).json()) as {
    data: Array<{ id: number; src: string }>
  }
  const demo = streams.data[0]
  if (demo === undefined) throw new Error("no demo channel")

  // the playlist: whole (plain and gzipped, as a player fetches it once) and as the delta updates after
  const playlistUrl = `${server.url}${demo.src}`
  const plain = await fetch(playlistUrl, { headers: { "accept-encoding": "identity" } })
  const plainText = await plain.text()
  const zipped = await rawGet(playlistUrl, { "accept-encoding": "gzip" })
  const zippedSize = zipped.encoding === "gzip" && gunzipSync(zipped.body).toString() === plainText ? zipped.body.length : Number.NaN
  const delta = await (await fetch(`${playlistUrl}&_HLS_skip=YES`)).text()
  const segments = plainText.split("\n").filter((line) => line.startsWith("#EXTINF")).length

  // writing the whole window, in this process (the server keeps one per channel and new segment)
  const loop: ReadonlyArray<LiveSegment> = Array.from({ length: 6 }, (_, i) => ({ file: `seg${i}.ts`, duration: 2 }))
  const writes: Array<number> = []
  for (let i = 0; i < 30; i += 1) {
    const started = performance.now()
    livePlaylist({ segments: loop, startedAt: 0, now: Date.now() + i * 2000, windowSize: 6, dvrMs: 4 * HOUR_MS })
    writes.push(performance.now() - started)
  }

  // a relayed, pulled or ingested channel's index of its window: four hours of 2 s segments
  const perSegment = indexBytesPerSegment(4 * 1800)

  // time to the first frame, live and an hour back, interleaved
  const live = `${server.url}/player?stream=${demo.id}`
  const back = () => `${live}&from=${new Date(Date.now() - HOUR_MS).toISOString()}`
  await firstFrame(browser, live, token, server.url)
  await firstFrame(browser, back(), token, server.url)
  const liveMs: Array<number> = []
  const backMs: Array<number> = []
  for (let round = 0; round < rounds; round += 1) {
    liveMs.push(await firstFrame(browser, live, token, server.url))
    backMs.push(await firstFrame(browser, back(), token, server.url))
    process.stdout.write(".")
  }
  process.stdout.write("\n")

  console.log()
  console.log("Time-shift: a demo channel with a 4-hour window (timeshiftHours 4)")
  console.log(row("the window's playlist", ["value", "", ""]))
  console.log(row("  segments listed", [segments]))
  console.log(row("  whole (KB)", [(plainText.length / 1024).toFixed(1)]))
  console.log(row("  whole, gzip (KB)", [(zippedSize / 1024).toFixed(1)]))
  console.log(row("  delta update (KB)", [(delta.length / 1024).toFixed(2)]))
  console.log(row("  writing it whole (ms), median/p90", [median(writes).toFixed(2), percentile(writes, 0.9).toFixed(2)]))
  console.log(row(`time to first frame (ms), n=${rounds}`, ["median", "p90", "min"]))
  console.log(row("  live", [median(liveMs), percentile(liveMs, 0.9), Math.min(...liveMs)]))
  console.log(row("  an hour back (&from=)", [median(backMs), percentile(backMs, 0.9), Math.min(...backMs)]))
  console.log(
    row("  ratio back / live (goal <= 1.5)", [
      (median(backMs) / median(liveMs)).toFixed(2),
      (percentile(backMs, 0.9) / percentile(liveMs, 0.9)).toFixed(2),
      ""
    ])
  )
  console.log(`  samples: live ${liveMs.join(" ")} | back ${backMs.join(" ")}`)
  console.log(
    "  (the demo loop's window is made from its six files on request: it takes no disk, and the server keeps one whole playlist per channel, not per viewer)"
  )
  console.log("A relayed, pulled or ingested channel's window (whole segments on disk, a small index in memory)")
  console.log(row("  disk per hour at 3 Mbit/s (GB)", [(((3e6 / 8) * 3600) / 1e9).toFixed(2)]))
  console.log(row("  index, bytes per segment (heap)", [perSegment.toFixed(0)]))
  console.log(row("  index for 4 h of 2 s segments (MB)", [((perSegment * 4 * 1800) / 1e6).toFixed(2)]))
  console.log("  (the relay section shows what a 3 Mbit/s relay really wrote: its window on disk per hour)")
}
