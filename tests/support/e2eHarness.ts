import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { SERVER_START_MS, WAIT_MS } from "./timeouts.ts"

const root = join(import.meta.dirname, "..", "..")

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface RunningServer {
  readonly url: string
  readonly env: Record<string, string>
  readonly output: () => string
  readonly stop: () => Promise<void>
  /** kill -9, as a power cut or the OOM killer would; the data stays for the next start. */
  readonly crash: () => Promise<void>
}

const waitForExit = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()))

/**
 * How `npm start` runs the server (package.json): a young generation of 2 MB keeps the resident
 * memory near what is live (V8's default reserves tens of MB for it) at no cost in throughput, and
 * the old generation may grow by half of what is live before it is collected again (V8 may let it
 * grow fourfold: under a burst of requests the heap sometimes tripled and never shrank back).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=2", "--heap-growing-percent=50"]

/**
 * And with what `npm start` sets around it: at most two malloc arenas, so memory the password
 * hashing thread takes and gives back is reused by the next hash, not kept in an arena of its own;
 * and a fixed threshold from which malloc maps memory of its own, so each hash's 19 MiB goes back
 * to the system when the hash is done.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "4194304" }

/** The server as it ships: `npm run build` bundles it (scripts/buildServer.ts), as `npm test` does first. */
export const SERVER_ENTRY = join(root, "build/server/main.js")

const newestSource = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs)
  }, 0)

let bundleChecked = false
/** Refuses to test a bundle older than the server's sources: it would test code that is gone. */
const assertServerBuilt = (): void => {
  if (bundleChecked) return
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run npm run build first`)
  const built = statSync(SERVER_ENTRY).mtimeMs
  if (["src/server", "src/domain"].some((dir) => newestSource(join(root, dir)) > built)) {
    throw new Error(`${SERVER_ENTRY} is older than the server's sources: run npm run build first`)
  }
  bundleChecked = true
}

/**
 * Starts the real server (the bundle `npm run serve` runs) on a free port with a fresh data dir. A
 * caller that needs the address before the start (PUBLIC_URL for mailed links) picks the port and
 * passes PORT.
 */
export const startServer = async (extraEnv: Record<string, string> = {}): Promise<RunningServer> => {
  // a caller's own DATA_DIR outlives the server: it is the caller's to remove
  const ownDataDir = extraEnv.DATA_DIR === undefined
  const dataDir = extraEnv.DATA_DIR ?? (await mkdtemp(join(tmpdir(), "streamhub-e2e-")))
  const port = extraEnv.PORT === undefined ? await freePort() : Number(extraEnv.PORT)
  const env = { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", ...extraEnv }
  assertServerBuilt()
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_ENTRY], {
    cwd: root,
    env: { ...SERVER_ENV, ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await waitForExit(child)
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true })
  }
  const crash = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    await waitForExit(child)
  }
  const deadline = Date.now() + SERVER_START_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`)
    try {
      const response = await fetch(`${url}/api/maintenance`)
      if (response.ok) return { url, env, output: () => log, stop, crash }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  await stop()
  throw new Error(`server did not start within ${SERVER_START_MS / 1000} s:\n${log}`)
}

/** Runs the operator CLI against the same data dir, as an operator would. */
export const admin = (server: RunningServer, ...args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "src/server/cli/admin.ts"), ...args], {
      cwd: root,
      env: { ...process.env, ...server.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()))
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`admin ${args.join(" ")} exited ${code}:\n${out}`))))
  })

/**
 * Headless Chromium builds its address-bar popup (a WebUI page) in the background, compiling a
 * couple of hundred scripts while the page under test loads: on two cores that is noise in every
 * timing. Chromium keeps only the last --disable-features it is given, so the list repeats the
 * features Playwright disables by default before adding those two.
 */
const DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup"
]

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
  `--disable-features=${DISABLED_FEATURES.join(",")}`
]

/**
 * Chromium as the tests drive it. Every context it opens (and the one `browser.newPage()` opens)
 * waits as long as the rest of the suite for an element, a function or a navigation.
 */
export const launchBrowser = async (): Promise<Browser> => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS })
  const newContext = browser.newContext.bind(browser)
  browser.newContext = async (options) => {
    const context = await newContext(options)
    context.setDefaultTimeout(WAIT_MS)
    context.setDefaultNavigationTimeout(WAIT_MS)
    return context
  }
  return browser
}

/** `stream:add` as an operator runs it; answers the new stream's id. */
export const addStream = async (server: RunningServer, ...args: ReadonlyArray<string>): Promise<number> => {
  const out = await admin(server, "stream:add", ...args)
  const id = /Added stream (\d+)/.exec(out)?.[1]
  if (id === undefined) throw new Error(`stream:add printed no id:\n${out}`)
  return Number(id)
}

/** A stream with no source, for subscribers only (SPEC §4: the viewer is offered a subscription). */
export const addStreamWithoutSource = (server: RunningServer, title: string): Promise<number> => addStream(server, "--title", title)

/** Signs in through the login form and waits for the streams page (an announcement may cover it). */
export const signIn = async (page: Page, server: RunningServer, email: string, password: string): Promise<void> => {
  await page.goto(`${server.url}/login`)
  // the app has the form (hydrated, or drawn anew when the page's prerendered site name is out of date)
  await page.waitForFunction(() => {
    const field = document.querySelector("input[type=email], input[autocomplete=email], input[autocomplete=username]")
    return field !== null && Object.keys(field).some((key) => key.startsWith("__reactFiber"))
  })
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password", { exact: true }).fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL(`${server.url}/`)
  await page.locator("header").waitFor()
}
