import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { addStream, admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "posters@example.com"
const PASSWORD = "correct horse battery"

let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  // as the README's own example adds one: no --image
  await addStream(server, "--title", "No Poster Channel", "--src", "/live/demo1/index.m3u8")
  await addStream(server, "--title", "Lost Poster Channel", "--src", "/live/demo2/index.m3u8", "--image", "/posters/missing.svg")
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  page = await context.newPage()
  await signIn(page, server, EMAIL, PASSWORD)
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.stop()
})

const card = (name: string): Locator => page.getByRole("listitem").filter({ has: page.getByRole("button", { name }) })

/** Images in the card that have nothing to show: no source, or one the browser could not load. */
const brokenImages = (item: Locator): Promise<number> =>
  item
    .locator("img")
    .evaluateAll(
      (images) =>
        (images as Array<HTMLImageElement>).filter(
          (image) => image.getAttribute("src") === "" || image.getAttribute("src") === null || (image.complete && image.naturalWidth === 0)
        ).length
    )

const placeholder = (item: Locator): Locator => item.locator("[data-poster='placeholder']")

describe("stream cards without a usable poster, in Chromium against the real server", () => {
  it("shows the designed placeholder, not a broken image, for a stream added without --image", async () => {
    await page.goto(`${server.url}/`)
    const item = card("No Poster Channel")
    await item.waitFor()
    expect(await item.locator("img").count()).toBe(0)
    expect(await placeholder(item).isVisible()).toBe(true)
    // the placeholder fills the poster's 16:9 frame, like a poster would
    const box = await placeholder(item).boundingBox()
    expect(box !== null && Math.abs(box.width / box.height - 16 / 9) < 0.05).toBe(true)
  })

  it("falls back to the placeholder when the poster fails to load", async () => {
    await page.goto(`${server.url}/`)
    const item = card("Lost Poster Channel")
    await item.waitFor()
    await expect.poll(() => placeholder(item).isVisible()).toBe(true)
    expect(await brokenImages(item)).toBe(0)
  })

  it("keeps the posters that load", async () => {
    await page.goto(`${server.url}/`)
    const item = card("Demo Channel 1")
    await item.waitFor()
    const image = item.locator("img")
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true)
    expect(await placeholder(item).count()).toBe(0)
  })
})
