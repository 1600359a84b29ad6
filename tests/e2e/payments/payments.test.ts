import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formatDate } from "../../../src/domain/Dates.ts"
import { monthAfter } from "../../../src/domain/Payment.ts"
import { payment, payPalCsv } from "../../server/payments/fixtures/payPalExport.ts"
import { seriousViolations } from "../../support/axe.ts"
import { addStreamWithoutSource, admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const
const DAY_MS = 24 * 60 * 60 * 1000

let server: RunningServer
let browser: Browser
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "streamhub-e2e-payments-"))
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  // the two demo channels play; a third needs a subscription
  await addStreamWithoutSource(server, "Premium Channel")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await rm(dir, { recursive: true, force: true })
})

/** The export's date, time and zone columns for an instant: DD/MM/YYYY and UTC, as an en-GB account writes them. */
const paypalDate = (at: Date) => ({
  Date: `${String(at.getUTCDate()).padStart(2, "0")}/${String(at.getUTCMonth() + 1).padStart(2, "0")}/${at.getUTCFullYear()}`,
  Time: at.toISOString().slice(11, 19),
  TimeZone: "UTC"
})

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

describe.each(VIEWPORTS)("payments at $name width ($width px), in Chromium against the real server", (viewport) => {
  const payer = `payer.${viewport.name}@example.com`
  const newcomer = `newcomer.${viewport.name}@example.com`
  const recent = new Date(Math.floor((Date.now() - 2 * DAY_MS) / 1000) * 1000)
  const older = new Date(recent.getTime() - 40 * DAY_MS)
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    await admin(server, "user:create", "--email", payer, "--password", PASSWORD)
    await admin(server, "user:create", "--email", newcomer, "--password", PASSWORD)
    const file = join(dir, `${viewport.name}.csv`)
    await writeFile(
      file,
      payPalCsv([
        payment({
          ...paypalDate(recent),
          "From Email Address": payer.toUpperCase(),
          "Transaction ID": `${viewport.name.toUpperCase()}RECENT0000`,
          Currency: "EUR",
          Gross: "1,234.50",
          Fee: "-35.15"
        }),
        payment({
          ...paypalDate(recent),
          Status: "Pending",
          "From Email Address": payer,
          "Transaction ID": `${viewport.name.toUpperCase()}PENDING000`
        }),
        payment({ ...paypalDate(older), "From Email Address": payer, "Transaction ID": `${viewport.name.toUpperCase()}OLDER00000` })
      ])
    )
    const report = await admin(server, "payment:import", "--file", file)
    expect(report).toContain(`${file}: imported 2, already present 0, skipped 1 row, 0 payments from unknown payers`)
    expect(report).toContain("Skipped rows: 1 Pending")
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    page = await context.newPage()
  })
  afterAll(async () => context?.close())

  it("shows an imported export in /transactions, newest first, axe clean", async () => {
    await signIn(page, server, payer, PASSWORD)
    await page.goto(`${server.url}/transactions`)
    const table = page.getByRole("table", { name: "Your payments, newest first" })
    await table.waitFor()
    await expect.poll(() => page.title()).toMatch(/^Transactions/)
    const headers = await table.getByRole("columnheader").allTextContents()
    expect(headers).toEqual(["ID", "PayPal transaction ID", "Date", "Price", "Payment method"])
    const rows = table.getByRole("row").filter({ has: page.getByRole("cell") })
    expect(await rows.count()).toBe(2)
    const cells = async (index: number) =>
      (await rows.nth(index).getByRole("cell").allInnerTexts()).map((text) => text.split("\n").at(-1)?.trim())
    expect((await cells(0)).slice(1)).toEqual([
      `${viewport.name.toUpperCase()}RECENT0000`,
      formatDate(recent.toISOString()),
      "€1,234.50",
      "PayPal"
    ])
    expect((await cells(1)).slice(1)).toEqual([`${viewport.name.toUpperCase()}OLDER00000`, formatDate(older.toISOString()), "$5", "PayPal"])
    // numbered within this account, in the order paid, though each viewport's payer imports after the other's
    expect([(await cells(0))[0], (await cells(1))[0]]).toEqual(["2", "1"])
    expect(await noSidewaysScroll(page)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
  })

  it("shows the paid month and reloads the streams on /subscription, axe clean", async () => {
    await page.goto(`${server.url}/subscription`)
    const expires = monthAfter(recent.toISOString())
    await page.getByText(`Paid until ${formatDate(expires)}`, { exact: true }).waitFor()
    expect(await page.getByRole("note").getByText("The site is currently free to use.").isVisible()).toBe(true)
    expect(await page.getByText(`Subscribed without a break since ${formatDate(recent.toISOString())}.`).isVisible()).toBe(true)

    const reload = page.getByRole("button", { name: "Reload streams" })
    await reload.focus()
    await page.keyboard.press("Enter")
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Streams reloaded" }).textContent())
      .toBe("Streams reloaded: 2 of 3 ready to watch.")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Reload streams")
    expect(await noSidewaysScroll(page)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])

    await page.getByRole("link", { name: "Your transactions" }).click()
    await page.waitForURL(`${server.url}/transactions`)
    await page.getByRole("table", { name: "Your payments, newest first" }).waitFor()
  })

  it("says 'No Transactions' and 'No active subscription' to an account that has paid nothing, axe clean", async () => {
    await context.clearCookies()
    await page.evaluate(() => window.localStorage.clear())
    await signIn(page, server, newcomer, PASSWORD)
    await page.goto(`${server.url}/transactions`)
    await page.getByText("No Transactions", { exact: true }).waitFor()
    expect(await page.getByRole("table").count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])

    await page.goto(`${server.url}/subscription`)
    await page.getByText("No active subscription", { exact: true }).waitFor()
    // on a free site that is nothing to worry about, and the page says so
    await page.getByText("None is needed while the site is free.").waitFor()
    expect(await noSidewaysScroll(page)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
  })
})
