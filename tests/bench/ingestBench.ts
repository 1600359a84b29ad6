/**
 * Ingest channels: a real-time encoder pushes over RTMP, then over SRT (a fresh server for each, so
 * each one's idle baseline is its own), and the server packages what it sends into LL-HLS. Prints,
 * each beside its goal:
 * - glass to glass in Chromium's low-latency player: the encoder burns its wall clock into the
 *   picture (a row of 32 boxes, one per bit of the wall-clock milliseconds modulo 2^32, see
 *   `clockFilters`); four times a second the page draws the playing frame into a canvas, reads the
 *   bits back and subtracts them from Date.now() (the browser and the encoder share this machine's
 *   clock). Beside it the player's own distance to the live edge (`data-latency-ms`) and the
 *   difference: roughly what passes before a frame is at the playlist's live edge (encoder,
 *   transport, ffmpeg's 0.4 s fragment, the packager).
 * - CPU and memory per live channel: the packaging ffmpeg child of the server (/proc), plus the
 *   server's CPU and RSS over its idle baseline measured just before the encoder starts (the
 *   packager's share, and for SRT the handshake gate relaying every datagram), with no viewer; the
 *   encoder's own CPU for scale, and the same with the one viewer of the latency measurement.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { admin, type RunningServer, signIn } from "../support/e2eHarness.ts"
import { type Encoder, freePorts, listens, startEncoder } from "../support/ffmpegEncoder.ts"
import { type BenchServer, OUR_SERVER, type ProbeReading, startBenchServer } from "./benchServer.ts"
import { median, percentile, row } from "./stats.ts"

const EMAIL = "ingest-bench@example.com"
const PASSWORD = "ingest bench password"
// after the two demo channels
const INGEST_INDEX = 2
const GLASS_GOAL_MS = 2500
const MIN_SAMPLES = 40
const CPU_GOAL_PERCENT = 3
const RSS_GOAL_MB = 80

/** The picture the encoder sends, and the clock row along its top. */
const WIDTH = 640
const HEIGHT = 360
const BITS = 32
const BOX = WIDTH / BITS
const WRAP = 2 ** BITS
const SAMPLE_MS = 250
// playback settles (the player reaches its distance from live) before samples count
const SETTLE_MS = 5000
// ffmpeg's start (probing the input) is no part of what a live channel costs
const WARM_MS = 3000
// how long the server's ffmpeg children may outlive it before they count as leaked
const LEAK_MS = 5000

export interface IngestBenchOptions {
  /** how long CPU and memory are sampled with no viewer */
  readonly seconds: number
  /** glass-to-glass readings per protocol, one each SAMPLE_MS */
  readonly samples: number
  /**
   * A browser of its own for each protocol, closed when that protocol is done: in one browser
   * shared by both, the second channel's playback often sat on its first frame for two seconds
   * before it ran, and then played 4.5 s behind live for good (hls.js only speeds playback up
   * within a target duration of its target)
   */
  readonly browser: () => Promise<Browser>
}

type Protocol = "RTMP" | "SRT"

/**
 * The encoder's `-vf`: frame times become the wall clock in ms (RTCTIME is in µs), so drawbox's `t`
 * is the wall clock in seconds; bit i of the milliseconds (mod 2^32) fills box i white on a black
 * band; then the frames get their ordinary 25 fps times back for the encoder and the muxer (FLV
 * keeps 32-bit milliseconds).
 */
export const clockFilters = (): string =>
  [
    "settb=1/1000",
    "setpts=floor(RTCTIME/1000)",
    `drawbox=x=0:y=0:w=${WIDTH}:h=${BOX}:color=black:t=fill`,
    ...Array.from(
      { length: BITS },
      (_, bit) =>
        `drawbox=x=${bit * BOX + 2}:y=2:w=${BOX - 4}:h=${BOX - 4}:color=white:t=fill:enable='mod(floor((t*1000+0.5)/${2 ** bit}),2)'`
    ),
    "settb=1/25",
    "setpts=N"
  ].join(",")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** An encoder burning the clock in, retried until the port takes it (the server opens its ports a moment after the channel exists). */
const publishWhenOpen = async (url: string): Promise<Encoder> => {
  const deadline = Date.now() + 30_000
  for (;;) {
    const encoder = startEncoder(url, { source: `testsrc2=size=${WIDTH}x${HEIGHT}:rate=25`, video: ["-vf", clockFilters()] })
    const ended = await Promise.race([encoder.exited, sleep(2000).then(() => "running")])
    if (ended === "running") return encoder
    if (Date.now() > deadline) throw new Error(`the encoder could not publish to ${url}: ${encoder.stderr()}`)
    await sleep(500)
  }
}

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100

interface ProcReading {
  readonly at: number
  readonly cpuMs: number
  readonly rssMb: number
  readonly anonMb: number
  /** bytes it has written with write(2) and the like: for the packaging ffmpeg, the fMP4 it hands the packager */
  readonly written: number
}

/** A process's CPU time (user + system), resident memory and bytes written, from /proc; undefined once it is gone. */
const readProc = (pid: number): ProcReading | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // the fields after the command's closing parenthesis: state is the first, utime the 12th, stime the 13th
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const ticks = Number(fields[11]) + Number(fields[12])
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
    const written = Number(/^wchar:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN)
    return {
      at: performance.now(),
      cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
      rssMb: kb("VmRSS") / 1024,
      anonMb: kb("RssAnon") / 1024,
      written
    }
  } catch {
    return undefined
  }
}

/** The server's packaging ffmpeg children (their command lines carry `movflags`). */
const packagingChildren = (serverPid: number): Array<number> =>
  spawnSync("pgrep", ["-P", String(serverPid), "-f", "movflags"])
    .stdout.toString()
    .split("\n")
    .filter(Boolean)
    .map(Number)

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const percentOfCore = (before: { cpuMs: number }, after: { cpuMs: number }, ms: number): number => ((after.cpuMs - before.cpuMs) / ms) * 100

/** What a stretch cost: CPU as % of one core and peak RSS of the packaging ffmpeg, the server and the encoder. */
interface Costs {
  readonly ffmpegCpu: number
  readonly ffmpegRssMb: number
  readonly ffmpegAnonMb: number
  /** what ffmpeg wrote: the media it hands the packager */
  readonly ffmpegMbps: number
  readonly serverCpu: number
  readonly serverRssMb: number
  readonly encoderCpu: number
  /** the packaging ffmpeg ended while it was sampled */
  readonly ended: boolean
}

/** Samples the packaging ffmpeg, the server and the encoder once a second for `ms`. */
async function sampleCosts(server: BenchServer, ffmpegPid: number, encoderPid: number, ms: number): Promise<Costs> {
  const firstFfmpeg = readProc(ffmpegPid)
  const firstEncoder = readProc(encoderPid)
  const firstServer = await server.probe({ reset: false })
  const started = performance.now()
  if (firstFfmpeg === undefined || firstEncoder === undefined) throw new Error("the packaging ffmpeg or the encoder is gone")
  let lastFfmpeg = firstFfmpeg
  let lastEncoder = firstEncoder
  let lastServer: ProbeReading = firstServer
  let peakFfmpeg = firstFfmpeg
  let peakServer = firstServer.rssMb
  let ended = false
  while (performance.now() - started < ms) {
    await sleep(1000)
    const ffmpeg = readProc(ffmpegPid)
    if (ffmpeg === undefined) {
      ended = true
      break
    }
    lastFfmpeg = ffmpeg
    lastEncoder = readProc(encoderPid) ?? lastEncoder
    lastServer = await server.probe({ reset: false })
    if (ffmpeg.rssMb > peakFfmpeg.rssMb) peakFfmpeg = ffmpeg
    peakServer = Math.max(peakServer, lastServer.rssMb)
  }
  return {
    ffmpegCpu: percentOfCore(firstFfmpeg, lastFfmpeg, lastFfmpeg.at - firstFfmpeg.at),
    ffmpegRssMb: peakFfmpeg.rssMb,
    ffmpegAnonMb: peakFfmpeg.anonMb,
    ffmpegMbps: ((lastFfmpeg.written - firstFfmpeg.written) * 8) / ((lastFfmpeg.at - firstFfmpeg.at) * 1000),
    serverCpu: percentOfCore(firstServer, lastServer, performance.now() - started),
    serverRssMb: peakServer,
    encoderCpu: percentOfCore(firstEncoder, lastEncoder, lastEncoder.at - firstEncoder.at),
    ended
  }
}

/** What the page reads off the playing frame, and the player's state then. */
interface FrameReading {
  readonly encoded: number
  readonly now: number
  /** the bit whose box was least clearly white or black: its luma's distance from the threshold */
  readonly margin: number
  readonly playerMs: number
  /** seconds buffered ahead of the playhead */
  readonly ahead: number
  readonly rate: number
  /** the playhead and what is buffered, as the video element has them */
  readonly position: string
}

/** Draws the playing frame into a canvas and reads the clock row back. */
const readFrame = (page: Page): Promise<FrameReading | null> =>
  page.evaluate(
    ({ bits, box, width }) => {
      const video = document.querySelector("video")
      if (video === null || video.readyState < 2 || video.videoWidth === 0) return null
      const holder = window as unknown as { clockCanvas?: HTMLCanvasElement }
      holder.clockCanvas ??= document.createElement("canvas")
      const canvas = holder.clockCanvas
      canvas.width = video.videoWidth
      canvas.height = video.videoHeight
      const context = canvas.getContext("2d", { willReadFrequently: true })
      if (context === null) return null
      context.drawImage(video, 0, 0)
      const now = Date.now()
      const scale = video.videoWidth / width
      const pixels = context.getImageData(0, 0, canvas.width, Math.ceil(box * scale)).data
      let encoded = 0
      let margin = 255
      for (let bit = 0; bit < bits; bit += 1) {
        const x = Math.round((bit * box + box / 2) * scale)
        const y = Math.round((box / 2) * scale)
        const at = (y * canvas.width + x) * 4
        const luma = 0.299 * (pixels[at] ?? 0) + 0.587 * (pixels[at + 1] ?? 0) + 0.114 * (pixels[at + 2] ?? 0)
        margin = Math.min(margin, Math.abs(luma - 128))
        if (luma > 128) encoded += 2 ** bit
      }
      const playerMs = Number(document.querySelector("[data-latency-ms]")?.getAttribute("data-latency-ms") ?? Number.NaN)
      const buffered = video.buffered
      const ahead = buffered.length === 0 ? 0 : buffered.end(buffered.length - 1) - video.currentTime
      const ranges = Array.from({ length: buffered.length }, (_, at) => `${buffered.start(at).toFixed(3)}-${buffered.end(at).toFixed(3)}`)
      const position = `at ${video.currentTime.toFixed(3)} s${video.paused ? " (paused)" : ""}, ready state ${video.readyState}, buffered ${ranges.join(" ")}`
      return { encoded, now, margin, playerMs, ahead, rate: video.playbackRate, position }
    },
    { bits: BITS, box: BOX, width: WIDTH }
  )

/** ms from the encoder's clock in the picture to the browser's clock now (both mod 2^32). */
const glassToGlass = (reading: FrameReading): number => ((((reading.now % WRAP) - reading.encoded) % WRAP) + WRAP) % WRAP

/** A reading of the clock, or NaN when the frame carried none (a frame not painted yet reads as all bits clear). */
const plausible = (ms: number): number => (ms > 60_000 ? Number.NaN : ms)

/** Counts the video's stalls from the page's start (media events do not bubble, but a capturing listener sees them). */
const countStalls = (): void => {
  const counter = window as unknown as { stalls: number }
  counter.stalls = 0
  document.addEventListener("waiting", () => (counter.stalls += 1), true)
}
const stallsSoFar = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { stalls: number }).stalls)

interface ProtocolResult {
  readonly protocol: Protocol
  /** glass to glass as the first frames play */
  readonly firstGlass: number
  readonly glass: Array<number>
  readonly player: Array<number>
  readonly ahead: Array<number>
  readonly rates: Set<number>
  readonly read: number
  readonly misread: number
  readonly weakestMargin: number
  readonly startStalls: number
  readonly stalls: number
  readonly idle: { cpu: number; rssMb: number }
  readonly noViewer: Costs
  readonly oneViewer: Costs
}

async function benchProtocol(protocol: Protocol, options: IngestBenchOptions): Promise<ProtocolResult> {
  const dataDir = await mkdtemp(join(tmpdir(), "streamhub-ingest-bench-"))
  const ports = await freePorts()
  const env = {
    DATA_DIR: dataDir,
    SIGN_IN_LIMIT_PER_MINUTE: "1000",
    RTMP_PORT: String(ports.tcp),
    SRT_PORT: String(ports.udp),
    INGEST_PUBLIC_HOST: "127.0.0.1"
  }
  let server: BenchServer | undefined
  let encoder: Encoder | undefined
  let browser: Browser | undefined
  const seen = new Set<number>()
  try {
    server = await startBenchServer(OUR_SERVER, env)
    const operator: RunningServer = {
      url: server.url,
      env: { ...env, PORT: new URL(server.url).port },
      output: () => "",
      stop: server.stop,
      crash: server.stop
    }
    await admin(operator, "user:create", "--email", EMAIL, "--password", PASSWORD)
    const added = await admin(operator, "stream:add", "--title", `${protocol} ingest`, "--ingest")
    const key = /\/live\/([A-Za-z0-9_-]{24})$/m.exec(added)?.[1]
    if (key === undefined) throw new Error(`stream:add --ingest printed no key:\n${added}`)
    const url = protocol === "RTMP" ? `rtmp://127.0.0.1:${ports.tcp}/live/${key}` : `srt://127.0.0.1:${ports.udp}?streamid=${key}`

    // the idle baseline: the channel exists and its ports are open, nobody publishes
    const portDeadline = Date.now() + 30_000
    while (!(await listens(ports.tcp)) && Date.now() < portDeadline) await sleep(200)
    await sleep(1000)
    const idleBefore = await server.probe({ reset: false })
    const idleStarted = performance.now()
    await sleep(6000)
    const idleAfter = await server.probe({ reset: false })
    const idle = { cpu: percentOfCore(idleBefore, idleAfter, performance.now() - idleStarted), rssMb: idleAfter.rssMb }

    encoder = await publishWhenOpen(url)
    const serverPid = server.pid
    const childDeadline = Date.now() + 30_000
    let children = packagingChildren(serverPid)
    while (children.length === 0 && Date.now() < childDeadline) {
      await sleep(200)
      children = packagingChildren(serverPid)
    }
    const ffmpegPid = children[0]
    if (ffmpegPid === undefined) throw new Error(`no packaging ffmpeg under the server (pid ${serverPid})`)
    if (children.length > 1) console.log(`  ${protocol}: ${children.length} packaging ffmpeg processes under the server`)
    for (const pid of children) seen.add(pid)
    const encoderPid = encoder.child.pid ?? 0
    await sleep(WARM_MS)
    const noViewer = await sampleCosts(server, ffmpegPid, encoderPid, options.seconds * 1000)

    // one viewer: the low-latency player, the clock read off the playing frame
    browser = await options.browser()
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.addInitScript(countStalls)
    const page = await context.newPage()
    await signIn(page, operator, EMAIL, PASSWORD)
    await page.goto(`${server.url}/playersldp?default=${INGEST_INDEX}`)
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.3, undefined, { timeout: 60_000 })
    // the playhead while playback settles, for the explanation should the delay be over its goal
    const settling: Array<string> = []
    let firstGlass = Number.NaN
    const settled = performance.now() + SETTLE_MS
    while (performance.now() < settled) {
      const reading = await readFrame(page)
      const ms = reading === null ? Number.NaN : plausible(glassToGlass(reading))
      // the frame first painted: a reading before it has no clock
      if (Number.isNaN(firstGlass)) firstGlass = ms
      if (reading !== null) settling.push(`${ms} ms ${reading.position}${reading.rate === 1 ? "" : ` ×${reading.rate}`}`)
      await sleep(SAMPLE_MS)
    }
    const startStalls = await stallsSoFar(page)
    const viewerFfmpeg = packagingChildren(serverPid)
    for (const pid of viewerFfmpeg) seen.add(pid)
    const viewerCosts = sampleCosts(server, viewerFfmpeg[0] ?? ffmpegPid, encoderPid, options.samples * SAMPLE_MS)
    const glass: Array<number> = []
    const player: Array<number> = []
    const ahead: Array<number> = []
    const rates = new Set<number>()
    let read = 0
    let misread = 0
    let weakestMargin = 255
    const trace: Array<string> = []
    for (let sample = 0; sample < options.samples; sample += 1) {
      await sleep(SAMPLE_MS)
      const reading = await readFrame(page)
      if (reading === null) continue
      read += 1
      const ms = glassToGlass(reading)
      if (read <= 3) {
        console.log(
          `  ${protocol}: the picture says ${reading.encoded}, Date.now() mod 2^32 is ${reading.now % WRAP}: ${ms} ms ` +
            `(weakest bit ${reading.margin.toFixed(0)} from the threshold; the player says ${reading.playerMs} ms behind live)`
        )
      }
      weakestMargin = Math.min(weakestMargin, reading.margin)
      // a misread bit shows as a figure far off (a minute is far beyond any plausible delay); none is dropped otherwise
      if (ms > 60_000) {
        misread += 1
        continue
      }
      glass.push(ms)
      if (Number.isFinite(reading.playerMs)) player.push(reading.playerMs)
      ahead.push(reading.ahead * 1000)
      rates.add(reading.rate)
      if (sample % 8 === 0) trace.push(`${ms}/${reading.playerMs}`)
    }
    console.log(`  ${protocol}: glass to glass / player's behind live (ms), every 2 s: ${trace.join(" ")}`)
    if (median(glass) > GLASS_GOAL_MS) await explainLag(page, protocol, settling)
    const oneViewer = await viewerCosts
    const stalls = (await stallsSoFar(page)) - startStalls
    return {
      protocol,
      firstGlass,
      glass,
      player,
      ahead,
      rates,
      read,
      misread,
      weakestMargin,
      startStalls,
      stalls,
      idle,
      noViewer,
      oneViewer
    }
  } finally {
    await browser?.close()
    await encoder?.stop()
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
    // the server stops its ffmpeg children as it stops: one still here a while later has leaked (reported, then ended)
    const stopped = performance.now()
    while ([...seen].some(alive) && performance.now() - stopped < LEAK_MS) await sleep(50)
    const lingered = performance.now() - stopped
    if (lingered > 1000) console.log(`  ${protocol}: the packaging ffmpeg outlived the server by ${(lingered / 1000).toFixed(1)} s`)
    for (const pid of seen) {
      if (alive(pid)) {
        console.log(`  ${protocol}: the packaging ffmpeg ${pid} is still running without its server; ending it`)
        process.kill(pid, "SIGKILL")
      }
    }
  }
}

/** What the player had when it started, and the playlist it plays now: printed when the delay is over its goal. */
async function explainLag(page: Page, protocol: Protocol, settling: ReadonlyArray<string>): Promise<void> {
  const playlist = await page.evaluate(async () => {
    const address = performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .findLast((name) => name.includes(".m3u8"))
    if (address === undefined) return "(no playlist among the page's requests)"
    const bare = new URL(address)
    bare.searchParams.delete("_HLS_msn")
    bare.searchParams.delete("_HLS_part")
    return (await fetch(bare)).text()
  })
  const now = await readFrame(page)
  console.log(`  ${protocol}: over the goal. While playback settled:\n${settling.map((line) => `    ${line}`).join("\n")}`)
  console.log(
    `  ${protocol}: now: ${now === null ? "-" : `${glassToGlass(now)} ms, ${now.position}, player ${now.playerMs} ms`}; its playlist:`
  )
  const lines = playlist.split("\n").map((line) => line.replace(/grant=[^&"]+/g, "grant=…"))
  console.log(lines.map((line) => `    ${line}`).join("\n"))
}

const met = (ok: boolean): string => (ok ? "met" : "NOT met")
const fixed = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : "-")
/** the packager's share: the server over its idle baseline */
const packagerCpu = (result: ProtocolResult, costs: Costs): number => costs.serverCpu - result.idle.cpu
const packagerRss = (result: ProtocolResult, costs: Costs): number => costs.serverRssMb - result.idle.rssMb
const totalCpu = (result: ProtocolResult, costs: Costs): number => costs.ffmpegCpu + packagerCpu(result, costs)
const totalRss = (result: ProtocolResult, costs: Costs): number => costs.ffmpegRssMb + packagerRss(result, costs)

export async function benchIngest(options: IngestBenchOptions): Promise<void> {
  const results: Array<ProtocolResult> = []
  for (const protocol of ["RTMP", "SRT"] as const) {
    console.log(`Ingest over ${protocol}…`)
    results.push(await benchProtocol(protocol, options))
  }

  // label, a figure per protocol, the goal
  const lines: Array<[string, (result: ProtocolResult) => string | number, string | number]> = [
    ["", (result) => result.protocol, "goal"],
    [`glass to glass, LL player (ms)`, () => "", ""],
    ["  median", (result) => fixed(median(result.glass)), `<= ${GLASS_GOAL_MS}`],
    ["  p95", (result) => fixed(percentile(result.glass, 0.95)), ""],
    ["  as the first frames play", (result) => fixed(result.firstGlass), ""],
    ["  min/max", (result) => `${fixed(Math.min(...result.glass))}/${fixed(Math.max(...result.glass))}`, ""],
    ["  samples (read, misread)", (result) => `${result.glass.length} (${result.read},${result.misread})`, `>= ${MIN_SAMPLES}`],
    ["  player's behind live, median", (result) => fixed(median(result.player)), ""],
    ["  to the live edge (g2g − player)", (result) => fixed(median(result.glass) - median(result.player)), ""],
    ["  buffered ahead, median", (result) => fixed(median(result.ahead)), ""],
    ["  stalls: starting, sampling", (result) => `${result.startStalls}, ${result.stalls}`, "0"],
    ["  verdict", (result) => met(result.glass.length >= MIN_SAMPLES && median(result.glass) <= GLASS_GOAL_MS), ""],
    [`per live channel, no viewer, ${options.seconds} s`, () => "", ""],
    ["  media out of ffmpeg (Mbit/s)", (result) => fixed(result.noViewer.ffmpegMbps, 2), ""],
    ["  ffmpeg child CPU (% of a core)", (result) => fixed(result.noViewer.ffmpegCpu, 2), ""],
    ["  server CPU over idle (%)", (result) => fixed(packagerCpu(result, result.noViewer), 2), ""],
    ["  ffmpeg + packager CPU (%)", (result) => fixed(totalCpu(result, result.noViewer), 2), `<= ${CPU_GOAL_PERCENT}`],
    ["  ffmpeg child RSS, peak (MB)", (result) => fixed(result.noViewer.ffmpegRssMb, 1), ""],
    ["    of it anonymous (MB)", (result) => fixed(result.noViewer.ffmpegAnonMb, 1), ""],
    ["  server RSS over idle, peak (MB)", (result) => fixed(packagerRss(result, result.noViewer), 1), ""],
    ["  ffmpeg + packager RSS (MB)", (result) => fixed(totalRss(result, result.noViewer), 1), `<= ${RSS_GOAL_MB}`],
    [
      "  verdict",
      (result) =>
        met(
          !result.noViewer.ended &&
            totalCpu(result, result.noViewer) <= CPU_GOAL_PERCENT &&
            totalRss(result, result.noViewer) <= RSS_GOAL_MB
        ),
      ""
    ],
    ["  encoder CPU, for scale (%)", (result) => fixed(result.noViewer.encoderCpu, 1), ""],
    ["  ratio packaging / encoding CPU", (result) => fixed(totalCpu(result, result.noViewer) / result.noViewer.encoderCpu, 2), ""],
    ["  server idle: CPU %, RSS MB", (result) => `${fixed(result.idle.cpu, 2)}, ${fixed(result.idle.rssMb)}`, ""],
    [`with the one viewer, ${fixed((options.samples * SAMPLE_MS) / 1000)} s`, () => "", ""],
    ["  ffmpeg + server over idle (%)", (result) => fixed(totalCpu(result, result.oneViewer), 2), ""],
    ["  ffmpeg + server over idle (MB)", (result) => fixed(totalRss(result, result.oneViewer), 1), ""]
  ]
  console.log()
  console.log(
    `Ingest: a real-time encoder pushing testsrc2 ${WIDTH}x${HEIGHT}@25 (x264 ultrafast zerolatency, a keyframe a second, AAC), ` +
      "a fresh server per protocol"
  )
  for (const [label, figure, goal] of lines) console.log(row(label, [...results.map(figure), goal]))
  for (const result of results) {
    console.log(`  ${result.protocol}: playback rates seen ${[...result.rates].sort().join(", ")}`)
    if (result.noViewer.ended || result.oneViewer.ended)
      console.log(`  ${result.protocol}: the packaging ffmpeg ended while it was sampled`)
    if (result.weakestMargin < 40)
      console.log(`  ${result.protocol}: a clock bit read within ${fixed(result.weakestMargin)} of the threshold`)
  }
  console.log(`  (CPU from /proc utime+stime at ${TICKS_PER_SECOND} ticks/s, and the server's own process.cpuUsage())`)
}
