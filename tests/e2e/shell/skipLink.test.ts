import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "skip@example.com"
const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const newContext = (viewport: (typeof VIEWPORTS)[number]) =>
  browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })

describe("the skip link, by keyboard, in Chromium against the real server", () => {
  const skipToMain = async (page: Page) => {
    await page.keyboard.press("Tab")
    const skip = page.getByRole("link", { name: "Skip to main content" })
    expect(await skip.evaluate((element) => element === document.activeElement), "the first Tab stop is the skip link").toBe(true)
    const box = await skip.boundingBox()
    const viewport = page.viewportSize()
    // visible once focused: a real size, inside the viewport
    expect(box !== null && box.width > 40 && box.height > 20 && box.x >= 0 && box.y >= 0).toBe(true)
    expect(box !== null && viewport !== null && box.x + box.width <= viewport.width).toBe(true)
    await page.keyboard.press("Enter")
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("MAIN")
    // the next Tab stop is inside the page content, past the header
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.querySelector("main")?.contains(document.activeElement) === true)).toBe(true)
  }

  it.each(VIEWPORTS)("jumps past the public page's brand to its form at $name width", async (viewport) => {
    const context = await newContext(viewport)
    const page = await context.newPage()
    await page.goto(`${server.url}/forgot-password`)
    await page.getByRole("heading", { level: 1 }).waitFor()
    const skip = page.getByRole("link", { name: "Skip to main content" })
    // out of sight until focused
    const hidden = await skip.boundingBox()
    expect(hidden === null || hidden.y + hidden.height <= 0 || hidden.width <= 1).toBe(true)
    await skipToMain(page)
    await context.close()
  })

  it.each(VIEWPORTS)("starts /login in its email field, the skip link one Shift+Tab back, at $name width", async (viewport) => {
    const context = await newContext(viewport)
    const page = await context.newPage()
    await page.goto(`${server.url}/login`)
    const email = page.getByLabel("Email")
    await expect.poll(() => email.evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.type(EMAIL)
    expect(await email.inputValue()).toBe(EMAIL)
    await page.keyboard.press("Shift+Tab")
    await page.keyboard.press("Shift+Tab")
    const skip = page.getByRole("link", { name: "Skip to main content" })
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true)
    await context.close()
  })

  it.each(VIEWPORTS)("jumps past the header to the page at $name width", async (viewport) => {
    const context = await newContext(viewport)
    const page = await context.newPage()
    await signIn(page, server, EMAIL, PASSWORD)
    await page.goto(`${server.url}/`)
    await page.getByRole("button", { name: "Switch Stream Player" }).waitFor()
    await skipToMain(page)
    await context.close()
  })
})
