import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"
import { expectPlaying } from "../../support/playback.ts"

const EMAIL = "caster@example.com"
const PASSWORD = "correct horse battery"

/**
 * Google's sender, as far as the player uses it: one device on the network, nothing connected.
 * There is no internet here, so the browser gets this in place of the real script.
 */
const FAKE_SENDER = `(() => {
  const context = {
    setOptions() {},
    getCastState: () => "NOT_CONNECTED",
    addEventListener() {},
    removeEventListener() {},
    requestSession: () => Promise.reject(new Error("cancel")),
    getCurrentSession: () => null
  }
  window.cast = { framework: { CastContext: { getInstance: () => context }, CastContextEventType: { CAST_STATE_CHANGED: "caststatechanged" } } }
  const media = { DEFAULT_MEDIA_RECEIVER_APP_ID: "CC1AD845", StreamType: { LIVE: "LIVE" }, MediaInfo: function () {}, GenericMediaMetadata: function () {}, LoadRequest: function () {} }
  window.chrome.cast = { AutoJoinPolicy: { ORIGIN_SCOPED: "origin_scoped" }, media }
  window.__onGCastApiAvailable(true)
})()`

let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page
const gstatic: Array<string> = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.route("https://www.gstatic.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_SENDER })
  )
  page = await context.newPage()
  page.on("request", (request) => {
    if (new URL(request.url()).hostname.endsWith("gstatic.com")) gstatic.push(request.url())
  })
  await signIn(page, server, EMAIL, PASSWORD)
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.stop()
})

describe("Google's Cast sender, in Chromium against the real server", () => {
  it("is never asked for by the low-latency player, which cannot cast", async () => {
    await page.goto(`${server.url}/playersldp?default=0`)
    await expectPlaying(page)
    // the TV player fetches the sender once the page is idle (3 s at most): give it longer than that
    await page.waitForTimeout(4000)
    expect(gstatic).toEqual([])
    expect(await page.getByRole("button", { name: "Cast to a device" }).count()).toBe(0)
  })

  it("is loaded by the TV player, which offers casting a stream tagged for Chromecast", async () => {
    await page.getByRole("link", { name: "Switch to TV player" }).click()
    await page.getByRole("button", { name: "Cast to a device" }).waitFor()
    expect(gstatic).toEqual(["https://www.gstatic.com/cv/js/sender/v1/cast_sender.js?loadCastFramework=1"])
  })
})
