import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readPlayerStart } from "../../../src/domain/Timeshift.ts"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const
/** Set to a folder to keep a picture of each page as the test sees it. */
const SHOTS = process.env.REMINDER_SCREENSHOTS

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  // a fresh data dir: the first start seeds the two demo channels and their generated guide
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const channel = (page: Page, name: string) => page.getByRole("list", { name: "Channels" }).getByRole("region", { name })
const shoot = async (page: Page, name: string) => {
  if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false })
}

describe.each(VIEWPORTS)("reminders at $name width ($width px), in Chromium against the real server", (viewport) => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url })
    page = await context.newPage()
    // a viewer of their own per width, so each starts without reminders
    const email = `reminded.${viewport.name}@example.com`
    await admin(server, "user:create", "--email", email, "--password", PASSWORD)
    await signIn(page, server, email, PASSWORD)
  })
  afterAll(async () => context?.close())

  it("sets a reminder from the guide, lists it on the reminders page with a calendar feed, and removes it", async () => {
    await page.goto(`${server.url}/stream-schedule`)
    const demo = channel(page, "Demo Channel 1")
    await demo.waitFor()

    // the programme on now plays from its start on the TV player
    const fromStart = demo.getByRole("link", { name: /^From the start: watch .* on Demo Channel 1$/ }).first()
    const href = (await fromStart.getAttribute("href")) ?? ""
    expect(href).toMatch(/^\/player\?stream=\d+&from=/)
    expect(readPlayerStart(href.slice("/player".length)).from).toBeLessThanOrEqual(Date.now())

    // tomorrow's last programme: late in the day, today's may all have begun, and one starting
    // within its lead would be mailed at once
    await page.getByLabel("Day", { exact: true }).selectOption({ index: 1 })
    const remind = demo.getByRole("button", { name: /^Remind me of / }).last()
    const title = ((await remind.getAttribute("aria-label")) ?? "").replace(/^Remind me of (.*) on Demo Channel 1$/, "$1")
    await remind.click()
    const dialog = page.getByRole("dialog", { name: "Remind me" })
    await dialog.waitFor()
    expect(await dialog.getByRole("radio", { name: "10 minutes before" }).isChecked()).toBe(true)
    await dialog.getByRole("radio", { name: "15 minutes before" }).check()
    await shoot(page, `guide-dialog-${viewport.width}`)
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole("button", { name: "Set reminder" }).click()
    await dialog.waitFor({ state: "detached" })
    await page.getByRole("list", { name: "Notifications" }).getByText("Reminder set").waitFor()
    const removeOnGuide = demo.getByRole("button", { name: `Remove the reminder for ${title}` }).first()
    await removeOnGuide.waitFor()
    expect(await demo.getByText(/^Reminder set · \d{1,2}:\d{2} (AM|PM)$/).count()).toBeGreaterThan(0)
    await removeOnGuide.scrollIntoViewIfNeeded()
    await shoot(page, `guide-${viewport.width}`)
    expect(await seriousViolations(page)).toEqual([])

    // the page of reminders, from the guide's own link
    await page.getByRole("link", { name: "your reminders" }).click()
    await page.waitForURL(`${server.url}/reminders`)
    const list = page.getByRole("list", { name: "Your reminders" })
    await list.getByText(title).first().waitFor()
    expect(await list.getByText(/^(Email at \d{1,2}:\d{2} (AM|PM), 15 minutes before|Reminder sent at .*)$/).count()).toBe(1)

    // a calendar feed, read as a calendar app would
    await page.getByRole("button", { name: "Make a calendar feed" }).click()
    const address = page.getByLabel(/^Feed address/)
    await address.waitFor()
    // the address is on PUBLIC_URL (localhost here); the test reaches the same server at its own address
    const shown = new URL(await address.inputValue())
    expect(shown.pathname).toMatch(/^\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    const url = `${server.url}${shown.pathname}`
    const ics = await fetch(url)
    expect(ics.headers.get("content-type")).toBe("text/calendar; charset=utf-8")
    const text = await ics.text()
    expect(text).toMatch(/^BEGIN:VCALENDAR/)
    expect(text).toContain("BEGIN:VALARM")
    expect(text.replace(/\r\n /g, "")).toContain(`SUMMARY:${title.replace(/[,;]/g, "\\$&")} (Demo Channel 1)`)
    await page.getByRole("button", { name: "Copy address" }).click()
    await page.getByRole("list", { name: "Notifications" }).getByText("The text is now on your clipboard").waitFor()
    await shoot(page, `reminders-${viewport.width}`)
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole("button", { name: "Turn the feed off" }).click()
    await page.getByRole("button", { name: "Make a calendar feed" }).waitFor()
    expect((await fetch(url)).status).toBe(404)

    await list.getByRole("button", { name: `Remove the reminder for ${title}` }).click()
    await page.getByText("No reminders yet. Choose Remind me on a programme in the Stream Schedule.").waitFor()
    await shoot(page, `reminders-empty-${viewport.width}`)
  })
})
