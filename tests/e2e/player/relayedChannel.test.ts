import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"
import { type FfmpegUpstream, startFfmpegUpstream, startTsBroadcast, type TsBroadcast } from "../../support/ffmpegUpstream.ts"
import { expectPlaying } from "../../support/playback.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

const EMAIL = "relay-watcher@example.com"
const PASSWORD = "correct horse battery"
const STAFF = "relay-desk@example.com"

let server: RunningServer
let browser: Browser
let upstream: Upstream
let packaged: FfmpegUpstream
let broadcast: TsBroadcast
let streamIndex = 0

beforeAll(async () => {
  upstream = await startUpstream()
  // all are waited for, and each kept once up, so afterAll stops them even when one fails to start
  const started = await Promise.allSettled([
    startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }).then((up) => (server = up)),
    launchBrowser().then((launched) => (browser = launched)),
    startFfmpegUpstream("fmp4-byterange").then((up) => (packaged = up)),
    startTsBroadcast().then((up) => (broadcast = up))
  ])
  const failed = started.find((result) => result.status === "rejected")
  if (failed !== undefined) throw failed.reason
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  await admin(server, "user:create", "--email", STAFF, "--password", PASSWORD, "--staff")
  await admin(server, "stream:add", "--title", "Relayed Channel", "--relay", `${upstream.url}/live/demo1/ll.m3u8`)
  await admin(server, "stream:add", "--title", "Packaged Channel", "--relay", packaged.url)
  await admin(server, "stream:add", "--title", "Pulled Channel", "--pull", broadcast.url)
  // after the two demo channels
  streamIndex = 2
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await upstream?.stop()
  await packaged?.stop()
  await broadcast?.stop()
})

const open = async (path: string, email = EMAIL, viewport = { width: 1440, height: 900 }): Promise<Page> => {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await signIn(page, server, email, PASSWORD)
  await page.goto(`${server.url}${path}`)
  return page
}

describe("a relayed channel, in Chromium against the real server", () => {
  it("plays in both players from our own origin, never from the upstream", async () => {
    for (const path of [`/player?default=${streamIndex}`, `/playersldp?default=${streamIndex}`]) {
      const page = await open(path)
      const asked: Array<string> = []
      page.on("request", (request) => asked.push(request.url()))
      await page.getByRole("heading", { level: 1, name: "Relayed Channel" }).waitFor()
      await expectPlaying(page)
      expect(asked.some((url) => url.startsWith(upstream.url))).toBe(false)
      expect(asked.some((url) => /\/live\/relay\d+\/m\/[\w-]+\.ts\?grant=/.test(url))).toBe(true)
      await page.context().close()
    }
  })

  it("plays a classic channel ffmpeg packages as fMP4 in byte ranges of one file, in the TV player", async () => {
    const page = await open(`/player?default=${streamIndex + 1}`)
    const asked: Array<string> = []
    page.on("request", (request) => asked.push(request.url()))
    await page.getByRole("heading", { level: 1, name: "Packaged Channel" }).waitFor()
    await expectPlaying(page)
    expect(asked.some((url) => url.startsWith(new URL(packaged.url).origin))).toBe(false)
    expect(asked.some((url) => /\/live\/relay\d+\/m\/[\w-]+\.m4s\?grant=/.test(url))).toBe(true)
    await page.context().close()
  })

  it("plays a channel ffmpeg pulls as MPEG-TS over HTTP, packaged by us as LL-HLS, in both players", async () => {
    for (const path of [`/player?default=${streamIndex + 2}`, `/playersldp?default=${streamIndex + 2}`]) {
      const page = await open(path)
      const asked: Array<string> = []
      page.on("request", (request) => asked.push(request.url()))
      await page.getByRole("heading", { level: 1, name: "Pulled Channel" }).waitFor()
      await expectPlaying(page)
      expect(asked.some((url) => /\/live\/pull\d+\/m\/[\w.-]+\.m4s\?grant=/.test(url))).toBe(true)
      await page.context().close()
    }
  })

  it("tells the viewer when the upstream goes away and plays on by itself when it is back", async () => {
    const page = await open(`/playersldp?default=${streamIndex}`)
    await expectPlaying(page)
    await upstream.stop()
    await page.getByRole("status").filter({ hasText: "The channel's signal was lost. Trying again…" }).waitFor({ timeout: WAIT_MS })
    // staff see the feed away, and why, beside the live connections, at desktop and phone widths
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 }
    ]) {
      const desk = await open("/adminreports", STAFF, viewport)
      await desk.getByRole("button", { name: "Show users" }).click()
      const feeds = desk.getByRole("table", { name: "Relayed channels" })
      await feeds.getByText(/^(stalled|failed)$/).waitFor({ timeout: WAIT_MS })
      await feeds.getByText(/cannot reach the upstream/).waitFor({ timeout: WAIT_MS })
      expect(await feeds.getByRole("row", { name: /Relayed Channel/ }).count()).toBe(1)
      expect(await seriousViolations(desk)).toEqual([])
      await desk.context().close()
    }
    await upstream.start()
    await page.getByText("The channel's signal was lost. Trying again…").waitFor({ state: "detached", timeout: WAIT_MS })
    await expectPlaying(page)
    await page.context().close()
  })
})
