import { format, subMonths } from "date-fns"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openDatabase } from "../../../src/server/db/database.ts"
import { seriousViolations } from "../../support/axe.ts"
import { admin, freePort, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const PASSWORD = "correct horse battery"
const STAFF = "desk@example.com"
const VIEWER = "payer@example.com"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const

// Last month's 5th: a PayPal payment of $7.50; today: $5 by PayPal and $10 in bitcoin.
const lastMonth = subMonths(new Date(), 1)
const lastMonthDay = (date: number) => format(new Date(lastMonth.getFullYear(), lastMonth.getMonth(), date, 12), "yyyy-MM-dd")
const dayLabel = (date: number) =>
  new RegExp(`^${format(new Date(lastMonth.getFullYear(), lastMonth.getMonth(), date, 12), "d MMMM yyyy")},`)

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  const port = await freePort()
  ;[server, browser] = await Promise.all([
    startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SIGN_IN_LIMIT_PER_MINUTE: "1000" }),
    launchBrowser()
  ])
  await admin(server, "user:create", "--email", STAFF, "--password", PASSWORD, "--staff")
  await admin(server, "user:create", "--email", VIEWER, "--password", PASSWORD)
  await admin(server, "payment:add", "--email", VIEWER, "--amount", "7.50", "--id", "PP-LAST-MONTH", "--date", lastMonthDay(5))
  await admin(server, "payment:add", "--email", VIEWER, "--amount", "5", "--id", "PP-TODAY")
  await admin(server, "payment:add", "--email", VIEWER, "--amount", "10", "--provider", "btc", "--currency", "USD")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const figure = (page: Page, label: string) =>
  page
    .getByRole("term")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]")
const notification = (page: Page, text: string) => page.getByRole("list", { name: "Notifications" }).getByText(text, { exact: true })

describe.each(VIEWPORTS)("/adminreports at $name width ($width px), in Chromium against the real server", (viewport) => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    page = await context.newPage()
    await signIn(page, server, STAFF, PASSWORD)
    await page.goto(`${server.url}/adminreports`)
  })
  afterAll(async () => context?.close())

  it("opens on this month's light report with its charts, axe clean", async () => {
    await expect.poll(() => page.title()).toMatch(/^Admin Reports/)
    await expect.poll(() => figure(page, "Revenue this month").textContent()).toBe("$15.00")
    expect(await figure(page, "Revenue this month excluding fees").textContent()).toBe("$14.35")
    expect(await figure(page, "Current subscribers").textContent()).toBe("1")
    expect(await figure(page, "Total revenue").textContent()).toBe("$22.50")
    expect(await figure(page, "Total revenue excluding fees").textContent()).toBe("$21.20")
    for (const chart of ["Revenue per day", "New members and subscriptions per day"]) {
      await page
        .getByRole("img", { name: new RegExp(`^${chart}`) })
        .locator("canvas")
        .first()
        .waitFor()
    }
    expect(await page.getByRole("link", { name: "Download CSV" }).getAttribute("download")).toMatch(
      /^reports-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/
    )
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
  })

  it("picks a range with the mouse and says so", async () => {
    await page.getByRole("button", { name: "Go to the Previous Month" }).click()
    await page.getByRole("button", { name: dayLabel(3) }).click()
    await page.getByText("Pick the last day of the range.").waitFor()
    await page.getByRole("button", { name: dayLabel(10) }).click()
    await notification(page, "Reports loaded.").waitFor()
    await expect.poll(() => figure(page, "Revenue this month").textContent()).toBe("$7.50")
    expect(await figure(page, "Revenue this month excluding fees").textContent()).toBe("$6.85")
    expect(await page.getByText(/^\d{2}\/\d{2}\/\d{4} – \d{2}\/\d{2}\/\d{4} · Light mode$/).textContent()).toContain(
      `03/${format(lastMonth, "MM/yyyy")}`
    )
  })

  it("picks a range with the keyboard alone", async () => {
    await page.getByRole("button", { name: dayLabel(3) }).focus()
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Enter")
    await expect
      .poll(() => page.getByText(/· Light mode$/).textContent())
      .toContain(`04/${format(lastMonth, "MM/yyyy")} – 11/${format(lastMonth, "MM/yyyy")}`)
    expect(await figure(page, "Revenue this month").textContent()).toBe("$7.50")
  })

  it("turns to another year through the 12-year grid", async () => {
    await page.getByRole("button", { name: /^Year \d{4}$/ }).click()
    const years = page.getByRole("group", { name: /^Years \d+ to \d+$/ })
    expect(
      await years
        .getByRole("button")
        .filter({ hasText: /^\d{4}$/ })
        .count()
    ).toBe(12)
    await years.getByRole("button", { name: "Earlier years" }).click()
    const earlier = Number(
      await years
        .getByRole("button")
        .filter({ hasText: /^\d{4}$/ })
        .first()
        .textContent()
    )
    await years.getByRole("button", { name: String(earlier) }).click()
    await page
      .getByText(new RegExp(`^${format(lastMonth, "MMMM")} ${earlier}$`))
      .first()
      .waitFor()
    // the grid is gone with the year that had the focus: the focus is back on its toggle
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "")
    expect(await focused()).toBe(`Year ${earlier}`)
    await page.keyboard.press("Enter")
    await years.waitFor()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Escape")
    await years.waitFor({ state: "detached" })
    expect(await focused()).toBe(`Year ${earlier}`)
  })

  it("switches to the detailed report with its Total and This Month blocks", async () => {
    await page.getByRole("button", { name: "Switch Report Mode" }).click()
    const total = page.getByRole("region", { name: "Total" })
    await total.waitFor()
    expect(await figure(page, "Orders paid by bitcoin").first().textContent()).toBe("1")
    expect(await total.getByText("Revenue by bitcoin").locator("xpath=following-sibling::dd[1]").textContent()).toBe("$10.00")
    const month = page.getByRole("region", { name: /^This Month \(/ })
    expect(await month.getByText("Orders", { exact: true }).locator("xpath=following-sibling::dd[1]").textContent()).toBe("1")
    expect(await seriousViolations(page)).toEqual([])
  })

  it("shows the users view with nobody streaming, axe clean", async () => {
    await page.getByRole("button", { name: "Show users" }).click()
    await page.getByRole("table", { name: "Sessions Streaming" }).waitFor()
    expect(await page.getByText("Nobody is streaming right now.").isVisible()).toBe(true)
    expect(await page.getByRole("table", { name: "UNKNOWN IP WATCHING STREAM" }).count()).toBe(0)
    await page.getByRole("button", { name: "Refresh Users" }).click()
    await expect.poll(() => figure(page, "Total connections").textContent()).toBe("0")
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole("button", { name: "Show reports" }).click()
  })
})

describe.each(VIEWPORTS)("the Sessions Streaming table at $name width, a page at a time", (viewport) => {
  const ROWS = 120
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    // 120 live connections, written where the server keeps them, as 120 players' heartbeats would
    const db = await openDatabase({ dataDir: server.env.DATA_DIR ?? "" })
    try {
      await db.kysely.deleteFrom("player_connections").execute()
      const users = await db.kysely.selectFrom("users").select(["id", "email"]).execute()
      const viewer = users.find((user) => user.email === VIEWER)?.id ?? 0
      const now = Date.now()
      await db.kysely
        .insertInto("player_connections")
        .values(
          Array.from({ length: ROWS }, (_, n) => ({
            user_id: viewer,
            session_id: 10_000 + n,
            token: `player-${String(n).padStart(3, "0")}`,
            stream_id: "1",
            app: "tv",
            ip: `10.20.0.${n}`,
            network: `10.20.0.${n}`,
            first_seen: new Date(now - (ROWS - n) * 1000).toISOString(),
            last_seen: new Date(now).toISOString()
          }))
        )
        .execute()
    } finally {
      await db.close()
    }
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    page = await context.newPage()
    await signIn(page, server, STAFF, PASSWORD)
    await page.goto(`${server.url}/adminreports`)
    await page.getByRole("button", { name: "Show users" }).click()
  })
  afterAll(async () => context?.close())

  const sessions = () => page.getByRole("table", { name: "Sessions Streaming" })
  const pages = () => page.getByRole("navigation", { name: "Sessions Streaming pages" })

  it("shows the first 50 rows with the counters over all 120, axe clean", async () => {
    await pages().getByText("Rows 1–50 of 120").waitFor()
    expect(await sessions().locator("tbody tr").count()).toBe(50)
    expect(await figure(page, "Total connections").textContent()).toBe("120")
    expect(await figure(page, "Accounts streaming").textContent()).toBe("1")
    expect(await page.getByRole("table", { name: "Users With multiple connections" }).getByText(VIEWER).isVisible()).toBe(true)
    expect(await pages().getByRole("button", { name: "Previous" }).isDisabled()).toBe(true)
    expect(await sessions().getByText("player-000", { exact: true }).count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])
    await page.screenshot({ path: `test-results/admin-sessions-pages-${viewport.name}.png`, fullPage: true })
  })

  it("turns to the next and the last page by keyboard, and keeps the page across refreshes", async () => {
    await pages().getByRole("button", { name: "Next" }).focus()
    await page.keyboard.press("Enter")
    await pages().getByText("Rows 51–100 of 120").waitFor()
    await expect.poll(() => sessions().getByText("player-050", { exact: true }).count()).toBe(1)
    expect(await sessions().getByText("player-000", { exact: true }).count()).toBe(0)
    await page.getByRole("button", { name: "Refresh Users" }).click()
    await page.getByRole("button", { name: "Refresh Users" }).waitFor()
    await expect.poll(() => page.getByRole("button", { name: "Refresh Users" }).isEnabled()).toBe(true)
    expect(await pages().getByText("Rows 51–100 of 120").isVisible()).toBe(true)
    await pages().getByRole("button", { name: "Last" }).focus()
    await page.keyboard.press("Space")
    await pages().getByText("Rows 101–120 of 120").waitFor()
    await expect.poll(() => sessions().locator("tbody tr").count()).toBe(20)
    expect(await pages().getByRole("button", { name: "Next" }).isDisabled()).toBe(true)
    await pages().getByRole("button", { name: "First" }).click()
    await pages().getByText("Rows 1–50 of 120").waitFor()
  })
})

describe("/adminreports for a viewer", () => {
  it("stays staff only", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await signIn(page, server, VIEWER, PASSWORD)
    await page.goto(`${server.url}/adminreports`)
    await page.getByRole("heading", { name: "Page not found" }).waitFor()
    expect(await page.getByRole("heading", { name: "Admin Reports" }).count()).toBe(0)
    await context.close()
  })
})
