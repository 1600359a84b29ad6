import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, freePort, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { expectPlaying } from "../../support/playback.ts"

const EMAIL = "watcher@example.com"
const PASSWORD = "correct horse battery"

let server: RunningServer
let browser: Browser
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  // nothing listens there: every request for it is refused
  const closed = `http://127.0.0.1:${await freePort()}/live/broken/index.m3u8`
  await admin(server, "stream:add", "--title", "Broken Channel", "--src", closed, "--src-sldp", closed)
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${server.url}/login`)
  await page.getByLabel("Email").fill(EMAIL)
  await page.getByLabel("Password").fill(PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL(`${server.url}/`)
  signedIn = await context.storageState()
  await context.close()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/**
 * Opens `path` signed in. The page's timers run on a clock the test can stop (`page.clock`): they
 * keep real time until it does, and then move only when the test moves them, so what a timer does
 * is seen at the moment it is due, however busy the machine.
 */
const open = async (path: string): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: signedIn })
  await context.clock.install()
  const page = await context.newPage()
  await page.goto(`${server.url}${path}`)
  return page
}

/**
 * Stops the page's timers, a moment on from where they are (the clock runs on while the test asks
 * it the time: a busier machine needs a longer moment); `page.clock.runFor` moves them on.
 */
const stopTheClock = async (page: Page) => {
  for (let ahead = 50; ; ahead *= 2) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + ahead)
      return
    } catch (error) {
      if (!String(error).includes("to the past")) throw error
    }
  }
}

const controlsOf = (page: Page) => player(page).getAttribute("data-controls")

const player = (page: Page) => page.getByRole("region", { name: "Video player" })

describe("the players, in Chromium against the real server", () => {
  it("plays both demo channels in the TV player and switches between them without a reload", async () => {
    // the UI flags (here: logo on the right) and any other parameter survive the switch
    const page = await open("/player?default=0&ui=8&from=grid")
    await expectPlaying(page)
    await page.evaluate(() => Object.assign(window, { samePage: true }))
    await page.getByRole("button", { name: /^Demo Channel 2/ }).click()
    await page.waitForURL(/\/player\?default=1&ui=8&from=grid$/)
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Demo Channel 2")
    await expectPlaying(page)
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    const other = page.getByRole("link", { name: "Switch to low-latency player" })
    expect(await other.getAttribute("href")).toBe("/playersldp?default=1&ui=8&from=grid")
    await other.click()
    await page.waitForURL(/\/playersldp\?default=1&ui=8&from=grid$/)
    await expectPlaying(page)
    await page.context().close()
  })

  it("switching players plays the other player's source at once, there and back and with the browser's Back", async () => {
    const page = await open("/player?default=0")
    const playlists: Array<string> = []
    page.on("request", (request) => {
      const path = new URL(request.url()).pathname
      if (path.endsWith(".m3u8")) playlists.push(path)
    })
    await expectPlaying(page)
    // the first playlist came with the page's streams call: the next is the player's own reload
    await expect.poll(() => playlists.at(-1)).toBe("/live/demo1/index.m3u8")

    playlists.length = 0
    await page.getByRole("link", { name: "Switch to low-latency player" }).click()
    await page.waitForURL(/\/playersldp\?default=0$/)
    await expect.poll(() => playlists.at(-1)).toBe("/live/demo1/ll.m3u8")
    await expectPlaying(page)
    expect(await page.getByText("Low-latency player", { exact: true }).count()).toBe(1)

    playlists.length = 0
    await page.getByRole("link", { name: "Switch to TV player" }).click()
    await page.waitForURL(/\/player\?default=0$/)
    await expect.poll(() => playlists.at(-1)).toBe("/live/demo1/index.m3u8")
    await expectPlaying(page)

    playlists.length = 0
    await page.goBack()
    await page.waitForURL(/\/playersldp\?default=0$/)
    await expect.poll(() => playlists.at(-1)).toBe("/live/demo1/ll.m3u8")
    await expectPlaying(page)
    expect(await page.locator("video").count()).toBe(1)
    await page.context().close()
  })

  it("opened directly, starts the stream before the app's code and hands the same video over to it", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: signedIn })
    const page = await context.newPage()
    const requests: Array<string> = []
    const streamsCalls: Array<string> = []
    page.on("request", (request) => {
      const url = new URL(request.url())
      requests.push(url.pathname)
      if (url.pathname === "/api/streams/all") streamsCalls.push(`${url.pathname}${url.search}`)
    })
    await page.goto(`${server.url}/player?default=1`)
    await page.getByRole("heading", { level: 1, name: "Demo Channel 2" }).waitFor()
    await expectPlaying(page)
    expect(await page.locator("video").count()).toBe(1)
    expect(await page.locator("[aria-busy='true']").count()).toBe(0)
    // the first segment came from the prefetch: hls.js did not ask for it a second time
    const segments = requests.filter((path) => path.startsWith("/live/demo2/seg/"))
    expect(segments.length).toBeGreaterThan(1)
    expect(new Set(segments).size).toBe(segments.length)
    // the app's own code (React and the rest) only after the stream's first data
    const firstSegment = requests.findIndex((path) => path.startsWith("/live/demo2/seg/"))
    const appCode = requests.findIndex((path) => /^\/assets\/mountApp-/.test(path))
    expect(firstSegment).toBeGreaterThanOrEqual(0)
    expect(appCode).toBeGreaterThan(firstSegment)
    // the page's inline script (allowed by its hash) sent the start-up calls, each once: the
    // streams call names the stream and player, which only that script does
    expect(requests.filter((path) => path === "/api/streams/all" || path === "/api/maintenance").sort()).toEqual([
      "/api/maintenance",
      "/api/streams/all"
    ])
    expect(streamsCalls).toEqual(["/api/streams/all?start=1&player=1"])
    // the stream's playlist came with the list: the first thing the page asked of the origin is a segment
    expect(requests.find((path) => path.startsWith("/live/"))).toMatch(/^\/live\/demo2\/seg\//)
    // the page the app rendered drives the very element that was playing
    await player(page).hover()
    await page.getByRole("button", { name: "Pause" }).click()
    await page.waitForFunction(() => document.querySelector("video")?.paused === true)
    await context.close()
  })

  it("plays both demo channels in the low-latency player, close behind live", async () => {
    const page = await open("/playersldp?default=1")
    await expectPlaying(page)
    // measured, and under 4 s once the player has caught up (it plays a little faster until it
    // has): a player of the regular playlist stays three segments, 6 s, behind
    // (the attribute is absent, read as 0, until the live edge has been measured once)
    const latency = async () => Number(await player(page).getAttribute("data-latency-ms"))
    await expect.poll(latency).toBeGreaterThan(0)
    await expect.poll(latency).toBeLessThan(4000)
    expect(Number(await player(page).getAttribute("data-first-frame-ms"))).toBeGreaterThan(0)
    await page.getByText(/s behind live$/).waitFor()
    await page.getByRole("button", { name: /^Demo Channel 1/ }).click()
    await page.waitForURL(/\/playersldp\?default=0$/)
    await expectPlaying(page)
    await page.context().close()
  })

  it("hides the control bar about 2 s after the mouse leaves the playing video", async () => {
    const page = await open("/player?default=0")
    await expectPlaying(page)
    const box = await player(page).boundingBox()
    if (box === null) throw new Error("the player has no box")
    await stopTheClock(page)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.move(box.x + box.width / 2 + 10, box.y + box.height / 2)
    expect(await controlsOf(page)).toBe("shown")
    await page.mouse.move(box.x + box.width + 100, box.y + box.height + 100)
    await page.clock.runFor(1900)
    expect(await controlsOf(page)).toBe("shown")
    await page.clock.runFor(200)
    expect(await controlsOf(page)).toBe("hidden")
    await page.clock.resume()
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    expect(await controlsOf(page)).toBe("shown")
    await page.context().close()
  })

  it("keeps the control bar while the keyboard is on one of its controls, and hides it once focus leaves", async () => {
    const page = await open("/player?default=0")
    await expectPlaying(page)
    await stopTheClock(page)
    await player(page).focus()
    const inBar = () => page.evaluate(() => document.activeElement?.closest("[role='group'][aria-label='Player controls']") != null)
    // the first of the bar's controls, in the player's tab order
    for (let presses = 0; presses < 10 && !(await inBar()); presses += 1) await page.keyboard.press("Tab")
    expect(await inBar()).toBe(true)
    await page.clock.runFor(3000)
    expect(await controlsOf(page)).toBe("shown")
    // back out of the bar: it goes 2 s later
    for (let presses = 0; presses < 10 && (await inBar()); presses += 1) await page.keyboard.press("Shift+Tab")
    expect(await inBar()).toBe(false)
    await page.clock.runFor(1900)
    expect(await controlsOf(page)).toBe("shown")
    await page.clock.runFor(200)
    expect(await controlsOf(page)).toBe("hidden")
    await page.context().close()
  })

  it("on a touch screen, the first tap on the playing picture brings the hidden controls back", async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      storageState: signedIn
    })
    await context.clock.install()
    const page = await context.newPage()
    await page.goto(`${server.url}/player?default=0`)
    await expectPlaying(page)
    await page.waitForFunction(() => document.querySelector("[data-controls='hidden']") !== null)
    const box = await player(page).boundingBox()
    if (box === null) throw new Error("the player has no box")
    // a tap counts once no second one follows within 300 ms (a double tap seeks)
    await stopTheClock(page)
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 3)
    await page.clock.runFor(400)
    expect(await controlsOf(page)).toBe("shown")
    // and the next tap hides them again, well before they would hide by themselves
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 3)
    await page.clock.runFor(400)
    expect(await controlsOf(page)).toBe("hidden")
    await context.close()
  })

  it("shows the error box for an unreachable source; a playable stream or a retry clears it", async () => {
    const page = await open("/player?default=2")
    const alert = page.getByRole("alert")
    await alert.waitFor()
    await alert.getByText("A network error occurred").waitFor()
    await alert.getByText("Error code 2").waitFor()
    await expect(page.getByRole("button", { name: "Play", exact: true }).isDisabled()).resolves.toBe(true)

    await page.getByRole("button", { name: /^Demo Channel 1/ }).click()
    await alert.waitFor({ state: "detached" })
    await expectPlaying(page)

    await page.getByRole("button", { name: /^Broken Channel/ }).click()
    await alert.waitFor()
    // the retries that follow Try again wait on the page's timers: the box it clears stays away
    // until they run
    await stopTheClock(page)
    await alert.getByRole("button", { name: "Try again" }).click()
    await alert.waitFor({ state: "detached" })
    // still unreachable: after its retries the box comes back
    await page.clock.resume()
    await alert.waitFor()
    await page.context().close()
  })

  it("says 'no internet' as soon as the connection goes, and plays again when it is back", async () => {
    const page = await open("/player?default=0")
    await expectPlaying(page)
    const alert = page.getByRole("alert")
    // with the page's timers stopped, hls.js cannot retry, let alone run out of retries: the
    // message can only come from the browser saying it went offline
    await stopTheClock(page)
    await page.context().setOffline(true)
    await alert.getByText("No internet connection detected").waitFor()
    await alert.getByText("Error code 1002").waitFor()
    await page.clock.resume()
    await page.context().setOffline(false)
    await alert.waitFor({ state: "detached" })
    await expectPlaying(page)
    await page.context().close()
  })

  it("keeps volume and mute across a reload", async () => {
    const page = await open("/player?default=0")
    await expectPlaying(page)
    const slider = page.getByRole("slider", { name: "Volume" })
    await slider.focus()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    await page.getByRole("button", { name: "Mute", exact: true }).click()
    await page.reload()
    await expectPlaying(page)
    await page.getByRole("button", { name: "Unmute" }).waitFor()
    expect(await page.locator("video").evaluate((video: HTMLVideoElement) => [video.volume, video.muted])).toEqual([0.8, true])
    expect(await page.getByRole("slider", { name: "Volume" }).getAttribute("aria-valuenow")).toBe("0")
    await page.context().close()
  })

  it("pauses and plays with the keyboard when the player has focus", async () => {
    const page = await open("/player?default=1")
    await expectPlaying(page)
    await player(page).focus()
    await page.keyboard.press("k")
    await page.waitForFunction(() => document.querySelector("video")?.paused === true)
    await page.getByRole("button", { name: "Play video" }).waitFor()
    await page.keyboard.press(" ")
    await page.waitForFunction(() => document.querySelector("video")?.paused === false)
    await page.context().close()
  })
})
