import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { STAFF_EMAIL } from "../../../src/server/account/seedStaff.ts"
import { admin, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "viewer@example.com"
const PASSWORD = "correct horse battery"

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

/** A fresh browser context per test, failing on any Content-Security-Policy violation. */
const openPage = async (path: string): Promise<{ page: Page; cspErrors: Array<string> }> => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await context.newPage()
  const cspErrors: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().includes("Content Security Policy")) cspErrors.push(message.text())
  })
  await page.goto(`${server.url}${path}`)
  return { page, cspErrors }
}

const signIn = async (page: Page, password: string) => {
  await page.getByLabel("Email").fill(EMAIL.toUpperCase())
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
}

describe("foundation, in Chromium against the real server", () => {
  it("prints a staff account once on first start", async () => {
    const output = server.output()
    expect(output).toContain(`email:    ${STAFF_EMAIL}`)
    const password = /^\s*password: (\S+)\s*$/m.exec(output)?.[1] ?? ""
    expect(password.length).toBeGreaterThanOrEqual(20)
    expect(output.match(/password: /g)).toHaveLength(1)

    // A second start on the same data (beside the first, on its own port) finds the staff account.
    const again = await startServer({ DATA_DIR: server.env.DATA_DIR ?? "" })
    try {
      await expect.poll(() => again.output()).toContain("StreamHub is running at")
      expect(again.output()).not.toMatch(/password:/i)
      expect(again.output()).not.toContain(password)
    } finally {
      await again.stop()
    }
  })

  it("shows the server's detail in red for a wrong password", async () => {
    const { page, cspErrors } = await openPage("/")
    await page.waitForURL("**/login")
    await signIn(page, "wrong password!")
    const detail = page.getByText("Email and password do not match")
    await detail.waitFor()
    const color = await detail.evaluate((element) => getComputedStyle(element).color)
    const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number)
    expect(r).toBeGreaterThan(180)
    expect(g).toBeLessThan(120)
    expect(b).toBeLessThan(120)
    expect(page.url()).toMatch(/\/login$/)
    expect(cspErrors).toEqual([])
    await page.context().close()
  })

  it("signs in, shows the grid, opens a channel and plays it live", async () => {
    const { page, cspErrors } = await openPage("/login")
    await signIn(page, PASSWORD)
    await page.waitForURL(`${server.url}/`)
    await page.getByRole("link", { name: "Home" }).first().waitFor()
    const card = page.getByRole("button", { name: /Demo Channel 1/ })
    await card.waitFor()
    await page.getByRole("button", { name: /Demo Channel 2/ }).waitFor()
    await card.click()
    await page.waitForURL(/\/playersldp\?default=0$/)
    const video = page.locator("video")
    await video.waitFor()
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.5)
    // and keeps playing: a second more of the picture, however long a busy machine takes to show it
    const first = await video.evaluate((element: HTMLVideoElement) => element.currentTime)
    await page.waitForFunction((from) => (document.querySelector("video")?.currentTime ?? 0) > from + 1, first)
    expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false)
    expect(cspErrors).toEqual([])
    await page.context().close()
  })

  it("shows only the notice while maintenance mode is on", async () => {
    await admin(
      server,
      "maintenance:on",
      "--title",
      "Planned works",
      "--first",
      "We are upgrading the servers",
      "--second",
      "Back within the hour"
    )
    try {
      const { page } = await openPage("/login")
      await page.getByText("Planned works").waitFor()
      await page.getByText("We are upgrading the servers").waitFor()
      await page.getByText("Back within the hour").waitFor()
      expect(await page.getByLabel("Email").count()).toBe(0)
      expect(await page.getByRole("navigation").count()).toBe(0)
      await page.context().close()
    } finally {
      await admin(server, "maintenance:off")
    }
  })
})
