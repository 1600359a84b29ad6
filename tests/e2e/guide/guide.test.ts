import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "guide.viewer@example.com"
const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const
const TIME = /^\d{1,2}:\d{2} (AM|PM)$/

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  // a fresh data dir: the first start seeds the two demo channels and their generated guide
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const channels = (page: Page) => page.getByRole("list", { name: "Channels" })
const channel = (page: Page, name: string) => channels(page).getByRole("region", { name })

describe.each(VIEWPORTS)("the stream schedule at $name width ($width px), in Chromium against the real server", (viewport) => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    page = await context.newPage()
    await signIn(page, server, EMAIL, PASSWORD)
  })
  afterAll(async () => context?.close())

  it("shows the demo channels' guide after first start: LIVE first, 12-hour times, a day select of seven days", async () => {
    const header = page.getByRole("banner")
    if (viewport.name === "phone") {
      await header.getByRole("button", { name: "Menu" }).click()
      await page.locator("#mobile-menu").getByRole("link", { name: "Stream Schedule" }).click()
    } else {
      await header.getByRole("link", { name: "Stream Schedule" }).click()
    }
    await page.waitForURL(`${server.url}/stream-schedule`)
    await page.getByRole("heading", { name: "Stream Schedule", level: 1 }).waitFor()
    await channel(page, "Demo Channel 1").waitFor()
    await expect.poll(() => page.title()).toMatch(/^Stream Schedule/)

    const days = page.getByLabel("Day", { exact: true })
    expect(await days.locator("option").count()).toBe(7)
    expect(await days.locator("option").first().textContent()).toMatch(/^Today, \w+day \d{1,2} \w+$/)
    expect(await days.locator("option").nth(1).textContent()).toMatch(/^Tomorrow, /)

    for (const name of ["Demo Channel 1", "Demo Channel 2"]) {
      // the channel's own programmes, not the ones over that it still holds from the start
      const first = channel(page, name).getByRole("list", { name, exact: true }).getByRole("listitem").first()
      expect(await first.getByText("LIVE", { exact: true }).isVisible()).toBe(true)
      for (const time of await first.locator("time").allTextContents()) expect(time).toMatch(TIME)
    }
    // one LIVE programme per channel: the rest are still to come
    expect(await channel(page, "Demo Channel 1").getByText("LIVE", { exact: true }).count()).toBe(1)
  })

  it("has no serious or critical accessibility violations", async () => {
    await page.goto(`${server.url}/stream-schedule`)
    await channel(page, "Demo Channel 1").waitFor()
    expect(await seriousViolations(page)).toEqual([])
  })

  it("switches days from the select, by keyboard too", async () => {
    await page.goto(`${server.url}/stream-schedule`)
    await channel(page, "Demo Channel 1").waitFor()
    const days = page.getByLabel("Day", { exact: true })
    const third = await days.locator("option").nth(2).getAttribute("value")
    await days.selectOption(third ?? "")
    // the whole day is ahead: its first programme starts at midnight or just before
    await expect.poll(() => channel(page, "Demo Channel 1").getByRole("listitem").count()).toBeGreaterThan(5)
    expect(await channels(page).getByText("LIVE", { exact: true }).count()).toBe(0)

    await days.focus()
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("ArrowUp")
    await expect.poll(() => days.inputValue()).toBe(await days.locator("option").first().getAttribute("value"))
    await expect.poll(() => channels(page).getByText("LIVE", { exact: true }).count()).toBe(2)
  })

  it("searches titles and subtitles across the seven days and shows each result's day and channel", async () => {
    await page.goto(`${server.url}/stream-schedule`)
    await channel(page, "Demo Channel 2").waitFor()
    await page.getByLabel("Day", { exact: true }).selectOption({ index: 5 })
    const later = channel(page, "Demo Channel 2").getByRole("listitem").nth(2)
    await later.waitFor()
    const title = (await later.locator("p").nth(1).textContent()) ?? ""

    await page.getByRole("searchbox", { name: "Search programmes" }).fill(title)
    const results = page.getByRole("list", { name: "Matching programmes" })
    await expect.poll(() => page.getByRole("status").filter({ hasText: /found/ }).textContent()).toMatch(/^\d+ programmes? found/)
    const match = results.getByRole("listitem").filter({ hasText: title }).filter({ hasText: "Demo Channel 2" }).first()
    await match.waitFor()
    expect(await match.textContent()).toMatch(/Today|Tomorrow|\w{3} \d{1,2} \w{3}/)

    await page.getByRole("searchbox", { name: "Search programmes" }).fill("")
    await channels(page).waitFor()
  })

  it("opens a LIVE programme in the viewer's player from Watch", async () => {
    await page.goto(`${server.url}/stream-schedule`)
    const watch = channel(page, "Demo Channel 2").getByRole("link", { name: /^Watch .+ on Demo Channel 2$/ })
    await watch.focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(`${server.url}/playersldp?default=1`)
    await page.getByRole("heading", { name: "Demo Channel 2", level: 1 }).waitFor()
  })
})

describe("the stream schedule in a zone with a legacy IANA id, in Chromium against the real server", () => {
  it("names the viewer's zone as people call it, with the id as the name's title", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: "Asia/Calcutta" })
    try {
      const page = await context.newPage()
      await signIn(page, server, EMAIL, PASSWORD)
      await page.goto(`${server.url}/stream-schedule`)
      await channel(page, "Demo Channel 1").waitFor()
      const lead = page.getByText(/Times are in your time zone/)
      expect(await lead.textContent()).toMatch(/Times are in your time zone, India Standard Time\.$/)
      expect(await lead.getByText("India Standard Time").getAttribute("title")).toBe("Asia/Calcutta")
    } finally {
      await context.close()
    }
  })
})
