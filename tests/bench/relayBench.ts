/**
 * The relay under load: one upstream LL-HLS channel (the demo loop padded to the bench's bitrate,
 * in a process of its own with the simulated viewers), relayed by our server. Prints, each beside
 * its goal: upstream requests per new part with 1 and with many viewers, errors, stalls and the
 * p99 time from a part's arrival upstream to the viewers' blocking playlist answers, CPU per
 * viewer (viewers per core), RSS over idle against the bytes the ring holds, and how far behind
 * live Chromium plays the relayed channels against the same loop served directly.
 */
import { type ChildProcess, fork } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { admin, type RunningServer } from "../support/e2eHarness.ts"
import { OUR_SERVER, startBenchServer } from "./benchServer.ts"
import { paddedMedia } from "./paddedMedia.ts"
import type { LoadCommand, LoadResult } from "./relayLoad.ts"
import { median, percentile, row } from "./stats.ts"

const root = join(import.meta.dirname, "..", "..")
const EMAIL = "relay-bench@example.com"
const PASSWORD = "relay bench password"
const MB = 2 ** 20

export interface RelayBenchOptions {
  readonly viewers: number
  readonly seconds: number
  readonly mbps: number
  readonly latencySeconds: number
  readonly browser: () => Promise<Browser>
}

const startLoad = async (mediaDir: string): Promise<{ child: ChildProcess; upstreamUrl: string }> => {
  const child = fork(join(import.meta.dirname, "relayLoad.ts"), [mediaDir], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  const upstreamUrl = await new Promise<string>((resolve, reject) => {
    child.once("message", (message: { url: string }) => resolve(message.url))
    child.once("exit", (code) => reject(new Error(`the relay load process exited ${code}`)))
  })
  return { child, upstreamUrl }
}

const runLoad = (child: ChildProcess, command: LoadCommand): Promise<LoadResult> =>
  new Promise((resolve) => {
    child.once("message", (message: LoadResult) => resolve(message))
    child.send(command)
  })

export async function benchRelay(options: RelayBenchOptions): Promise<void> {
  const mediaDir = await paddedMedia(join(root, "media"), "demo1", options.mbps)
  const dataDir = await mkdtemp(join(tmpdir(), "streamhub-relay-bench-"))
  const { child, upstreamUrl } = await startLoad(mediaDir)
  const env = { DATA_DIR: dataDir, SIGN_IN_LIMIT_PER_MINUTE: "100000", API_LIMIT_PER_MINUTE: "9999999" }
  const server = await startBenchServer(OUR_SERVER, env)
  const operator: RunningServer = {
    url: server.url,
    env: { ...env, PORT: new URL(server.url).port },
    output: () => "",
    stop: server.stop,
    crash: server.stop
  }
  try {
    await admin(operator, "user:create", "--email", EMAIL, "--password", PASSWORD)
    await admin(operator, "settings:set", "--key", "maxStreamsPerAccount", "--value", "0")
    await admin(operator, "stream:add", "--title", "Relayed LL", "--relay", `${upstreamUrl}/live/demo1/ll.m3u8`)
    await admin(operator, "stream:add", "--title", "Relayed classic", "--relay", `${upstreamUrl}/live/demo1/index.m3u8`)

    // a session per simulated viewer: the feed counts viewers by their grants
    const tokens: Array<string> = []
    for (let i = 0; i < options.viewers; i += 1) {
      const login = await fetch(`${server.url}/api/users/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD, isMobile: false })
      })
      tokens.push(((await login.json()) as { token: string }).token)
    }
    const sources: Array<string> = []
    for (const token of tokens) {
      const streams = (await (await fetch(`${server.url}/api/streams/all`, { headers: { token } })).json()) as {
        data: Array<{ title: string; src_sldp: string }>
      }
      sources.push(`${server.url}${streams.data.find((stream) => stream.title === "Relayed LL")?.src_sldp}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const idle = await server.probe()

    // one viewer: the feed starts, and what it costs with nobody else
    await runLoad(child, { type: "run", viewers: 1, seconds: 3, sources })
    const oneBefore = await server.probe()
    const one = await runLoad(child, { type: "run", viewers: 1, seconds: options.seconds / 2, sources })
    const oneAfter = await server.probe()

    // many viewers, RSS sampled as they watch
    let peak = idle
    const sampler = setInterval(() => {
      void server.probe({ reset: false }).then((reading) => {
        if (reading.rssMb > peak.rssMb) peak = reading
      })
    }, 1000)
    const manyBefore = await server.probe()
    const many = await runLoad(child, { type: "run", viewers: options.viewers, seconds: options.seconds, sources })
    const manyAfter = await server.probe()
    clearInterval(sampler)
    if (manyAfter.rssMb > peak.rssMb) peak = manyAfter

    const cores = (before: { cpuMs: number }, after: { cpuMs: number }, seconds: number) => (after.cpuMs - before.cpuMs) / (seconds * 1000)
    const oneCores = cores(oneBefore, oneAfter, options.seconds / 2)
    const manyCores = cores(manyBefore, manyAfter, options.seconds)
    const perViewer = (manyCores - oneCores) / (options.viewers - 1)
    const mbpsServed = (many.bytes * 8) / options.seconds / 1e6

    console.log()
    console.log(`Relay: one LL-HLS upstream at ${options.mbps} Mbit/s (the demo loop, padded), 0.4 s parts, ${options.seconds} s`)
    console.log(row("viewers", ["1", String(options.viewers), "goal"]))
    const perObject = (result: LoadResult) =>
      (result.mediaObjects === 0 ? Number.NaN : result.mediaRequests / result.mediaObjects).toFixed(2)
    console.log(row("upstream fetches per part", [perObject(one), perObject(many), "1"]))
    console.log(
      row("upstream playlists per part", [
        (one.playlistRequests / Math.max(1, one.newParts)).toFixed(2),
        (many.playlistRequests / Math.max(1, many.newParts)).toFixed(2),
        "~1"
      ])
    )
    console.log(row("errors", [one.errors, many.errors, 0]))
    console.log(row("stalls (answer > 1.2 s late)", [one.stalls, many.stalls, 0]))
    console.log(
      row("arrival → answer p50/p99 (ms)", [
        `${median(one.delays).toFixed(0)}/${percentile(one.delays, 0.99).toFixed(0)}`,
        `${median(many.delays).toFixed(0)}/${percentile(many.delays, 0.99).toFixed(0)}`,
        "p99<=100"
      ])
    )
    console.log(row("server CPU (cores)", [oneCores.toFixed(3), manyCores.toFixed(3), ""]))
    console.log(row("viewers per core", ["", (options.viewers / manyCores).toFixed(0), ">= 500"]))
    console.log(`  ${(1 / perViewer).toFixed(0)} per core counting only what each viewer past the first adds`)
    console.log(row("served to viewers (Mbit/s)", ["", mbpsServed.toFixed(0), ""]))
    const ringMb = many.distinctBytes / MB
    console.log(row("RSS over idle − ring (MB)", ["", (peak.rssMb - idle.rssMb - ringMb).toFixed(1), "<= 20"]))
    const memory = (reading: typeof idle) =>
      `RSS ${reading.rssMb.toFixed(0)}, heap ${reading.heapMb.toFixed(0)} of ${reading.heapTotalMb.toFixed(0)}, external ${reading.externalMb.toFixed(0)}`
    console.log(`  idle: ${memory(idle)}; at the peak: ${memory(peak)} (MB)`)
    console.log(`  ring: ${ringMb.toFixed(1)} MB of media since the feed started; ${many.answers} blocking answers`)
    if (many.firstErrors.length > 0) console.log(`  first errors: ${many.firstErrors.join(" | ")}`)
    const window = await windowOnDisk(join(dataDir, "timeshift"))
    console.log(
      row("time-shift window on disk", [
        `${window.seconds.toFixed(0)} s`,
        `${(window.bytes / MB).toFixed(1)} MB`,
        `${(((window.bytes / Math.max(1, window.seconds)) * 3600) / 1e9).toFixed(2)} GB/h`
      ])
    )

    await behindLive(server.url, tokens[0] ?? "", options)
  } finally {
    child.send({ type: "stop" } satisfies LoadCommand)
    await new Promise((resolve) => child.once("exit", resolve))
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
    await rm(mediaDir, { recursive: true, force: true })
  }
}

/** What the relays' time-shift windows hold: the seconds their indexes list and the bytes of their files. */
async function windowOnDisk(dir: string): Promise<{ readonly seconds: number; readonly bytes: number }> {
  let seconds = 0
  let bytes = 0
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue
    const file = join(entry.parentPath, entry.name)
    if (entry.name === "index.jsonl") {
      for (const line of (await readFile(file, "utf8")).split("\n")) {
        if (line !== "") seconds += (JSON.parse(line) as { d?: number }).d ?? 0
      }
    } else bytes += (await stat(file)).size
  }
  return { seconds, bytes }
}

/** How far behind live Chromium plays each channel, as the player itself measures it (program date times). */
async function behindLive(url: string, token: string, options: RelayBenchOptions): Promise<void> {
  const browser = await options.browser()
  const signedIn = { storageState: { cookies: [], origins: [{ origin: url, localStorage: [{ name: "Token", value: token }] }] } }
  // the streams: the two demo channels, then the relayed LL and classic ones
  const pages: ReadonlyArray<[string, string]> = [
    ["  the loop served directly, LL", "/playersldp?default=0"],
    ["  relayed LL-HLS, LL player", "/playersldp?default=2"],
    ["  relayed classic, TV player", "/player?default=3"]
  ]
  console.log()
  console.log(row(`behind live, Chromium (ms), ${options.latencySeconds} s`, ["median", "p95", "stalls"]))
  const medians: Array<number> = []
  for (const [label, path] of pages) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...signedIn })
    const page = await context.newPage()
    await page.goto(`${url}${path}`)
    await page.waitForFunction(() => document.querySelector("[data-latency-ms]") !== null, undefined, { timeout: 60_000 })
    await page.evaluate(() => {
      const counter = window as unknown as { stalls: number }
      counter.stalls = 0
      document.querySelector("video")?.addEventListener("waiting", () => (counter.stalls += 1))
    })
    const latencies: Array<number> = []
    for (let sample = 0; sample < options.latencySeconds * 4; sample += 1) {
      await page.waitForTimeout(250)
      const latency = await page.evaluate(() => Number(document.querySelector("[data-latency-ms]")?.getAttribute("data-latency-ms")))
      if (Number.isFinite(latency)) latencies.push(latency)
    }
    const stalls = await page.evaluate(() => (window as unknown as { stalls: number }).stalls)
    await context.close()
    medians.push(median(latencies))
    console.log(row(label, [median(latencies).toFixed(0), percentile(latencies, 0.95).toFixed(0), stalls]))
  }
  const [direct = Number.NaN, relayed = Number.NaN] = medians
  console.log(row("  relayed LL − direct (<= 500)", [(relayed - direct).toFixed(0), "", ""]))
}
