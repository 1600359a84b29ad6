import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"
import { type Encoder, freePorts, startEncoder } from "../../support/ffmpegEncoder.ts"
import { hasFfmpeg } from "../../support/ffmpegUpstream.ts"
import { expectPlaying } from "../../support/playback.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

const EMAIL = "ingest-watcher@example.com"
const PASSWORD = "correct horse battery"
const STAFF = "ingest-desk@example.com"

let server: RunningServer
let browser: Browser
const encoders: Array<Encoder> = []
const keys = { rtmp: "", srt: "" }
let rtmpUrl = ""
let srtUrl = ""
// after the two demo channels
const FIRST = 2

const keyIn = (output: string): string => /\/live\/([A-Za-z0-9_-]{24})$/m.exec(output)?.[1] ?? ""

beforeAll(async () => {
  if (!hasFfmpeg()) return
  const ports = await freePorts()
  ;[server, browser] = await Promise.all([
    startServer({
      SIGN_IN_LIMIT_PER_MINUTE: "1000",
      RTMP_PORT: String(ports.tcp),
      SRT_PORT: String(ports.udp),
      INGEST_PUBLIC_HOST: "127.0.0.1"
    }),
    launchBrowser()
  ])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  await admin(server, "user:create", "--email", STAFF, "--password", PASSWORD, "--staff")
  keys.rtmp = keyIn(await admin(server, "stream:add", "--title", "RTMP Channel", "--ingest"))
  keys.srt = keyIn(await admin(server, "stream:add", "--title", "SRT Channel", "--ingest"))
  rtmpUrl = `rtmp://127.0.0.1:${ports.tcp}/live/${keys.rtmp}`
  srtUrl = `srt://127.0.0.1:${ports.udp}?streamid=${keys.srt}`
  // the server opens its ingest ports once it sees the channels; the encoders retry as OBS does
  encoders.push(await publishWhenOpen(rtmpUrl), await publishWhenOpen(srtUrl))
})

afterAll(async () => {
  await Promise.all(encoders.map((encoder) => encoder.stop()))
  await browser?.close()
  await server?.stop()
})

/** An encoder that keeps trying, as OBS does, until the port takes it. */
const publishWhenOpen = async (url: string): Promise<Encoder> => {
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    const encoder = startEncoder(url)
    const ended = await Promise.race([encoder.exited, new Promise((resolve) => setTimeout(() => resolve("running"), 2000))])
    if (ended === "running") return encoder
    if (Date.now() > deadline) throw new Error(`the encoder could not publish to ${url}: ${encoder.stderr()}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

const open = async (path: string, email = EMAIL, viewport = { width: 1440, height: 900 }): Promise<Page> => {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  await signIn(page, server, email, PASSWORD)
  await page.goto(`${server.url}${path}`)
  return page
}

describe.skipIf(!hasFfmpeg())("a channel an encoder pushes, in Chromium against the real server", () => {
  it("plays the RTMP and the SRT channel in both players, from our own origin", async () => {
    for (const [offset, title] of [
      [0, "RTMP Channel"],
      [1, "SRT Channel"]
    ] as const) {
      for (const player of ["player", "playersldp"]) {
        const page = await open(`/${player}?default=${FIRST + offset}`)
        const asked: Array<string> = []
        page.on("request", (request) => asked.push(request.url()))
        await page.getByRole("heading", { level: 1, name: title }).waitFor()
        await expectPlaying(page)
        expect(asked.some((url) => /\/live\/ingest\d+\/m\/[\w.-]+\.m4s\?grant=/.test(url))).toBe(true)
        await page.context().close()
      }
    }
  })

  it("tells viewers and staff when the encoder stops, and plays on by itself when it is back", async () => {
    const page = await open(`/playersldp?default=${FIRST}`)
    await expectPlaying(page)
    await encoders[0]?.stop()
    await page.getByRole("status").filter({ hasText: "The channel's signal was lost. Trying again…" }).waitFor({ timeout: WAIT_MS })
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 }
    ]) {
      const desk = await open("/adminreports", STAFF, viewport)
      await desk.getByRole("button", { name: "Show users" }).click()
      const feeds = desk.getByRole("table", { name: "Relayed channels" })
      await feeds.getByRole("row", { name: /RTMP Channel.*stalled/ }).waitFor({ timeout: WAIT_MS })
      await feeds.getByRole("row", { name: /SRT Channel.*live.*SRT from 127\.0\.0\.1 · \d+ fps/ }).waitFor({ timeout: WAIT_MS })
      expect(await seriousViolations(desk)).toEqual([])
      await desk.context().close()
    }
    encoders[0] = await publishWhenOpen(rtmpUrl)
    await page.getByText("The channel's signal was lost. Trying again…").waitFor({ state: "detached", timeout: WAIT_MS })
    // the new encoder's first segments are packaged, fetched and buffered before the picture moves:
    // with the encoder, Chromium and the whole suite sharing two cores, that can outlast one wait
    await expectPlaying(page, 2 * WAIT_MS)
    await page.context().close()
  })
})
