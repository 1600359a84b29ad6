import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { audit } from "../../../src/server/audit/auditFeature.ts"
import { openDatabase } from "../../../src/server/db/database.ts"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const
const SHOTS = process.env.AUDIT_SCREENSHOTS

let server: RunningServer
let browser: Browser

/** Signs in through the API, as a client would, and answers the session token. */
const tokenOf = async (email: string): Promise<string> => {
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, isMobile: false })
  })
  return ((await login.json()) as { token: string }).token
}

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", "auditor@example.com", "--password", PASSWORD, "--staff")
  await admin(server, "user:create", "--email", "viewer@example.com", "--password", PASSWORD)
  await admin(server, "settings:set", "--key", "siteName", "--value", "Match Night")
  // a staff member's change through the API: the log names them and their address
  const viewer = await tokenOf("viewer@example.com")
  await fetch(`${server.url}/api/support/ticket`, {
    method: "POST",
    headers: { "content-type": "application/json", token: viewer },
    body: JSON.stringify({ type: 2, subject: "Charged twice", description: "Two payments in January" })
  })
  const staff = await tokenOf("auditor@example.com")
  const tickets = (await (await fetch(`${server.url}/api/support/adminsuppottickets`, { headers: { token: staff } })).json()) as {
    data: Array<{ id: number }>
  }
  const changed = await fetch(`${server.url}/api/support/updateSupportTicket`, {
    method: "POST",
    headers: { "content-type": "application/json", token: staff },
    body: JSON.stringify({ ticketId: tickets.data[0]?.id, newStatus: 3 })
  })
  expect(changed.status).toBe(200)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.each(VIEWPORTS)("/adminaudit at $name width ($width px), in Chromium against the real server", (viewport) => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    page = await context.newPage()
    await signIn(page, server, "auditor@example.com", PASSWORD)
  })
  afterAll(async () => context?.close())

  it("is reached from the header's staff links", async () => {
    const banner = page.getByRole("banner")
    if (viewport.name === "phone") await banner.getByRole("button", { name: "Menu" }).click()
    await banner.getByRole("link", { name: "Audit Log" }).click()
    await page.waitForURL(`${server.url}/adminaudit`)
    await expect.poll(() => page.title()).toMatch(/^Audit Log/)
    await page.getByRole("heading", { name: "Audit Log", level: 1 }).waitFor()
  })

  it("shows who did what to what, newest first, axe clean and without scrolling sideways", async () => {
    const table = page.getByRole("table", { name: "Audit entries" })
    await table.waitFor()
    const rows = table.getByRole("row").filter({ has: page.getByRole("cell") })
    const first = (await rows.first().getByRole("cell").allTextContents()).join(" | ")
    expect(first).toContain("auditor@example.com")
    expect(first).toContain("Ticket status changed")
    expect(first).toContain("ticket.status")
    expect(first).toContain("Open → Resolved")
    expect(first).toContain("127.0.0.1")
    const all = await table.textContent()
    expect(all).toMatch(/Operator CLI \([^)]+\)/)
    expect(all).toContain("setting siteName")
    expect(all).toContain("user.create")
    expect(await seriousViolations(page)).toEqual([])
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner)
    if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/audit-${viewport.name}.png`, fullPage: true })
  })

  it("filters by actor and clears, with the keyboard alone", async () => {
    const actor = page.getByLabel("Actor")
    for (let step = 0; step < 40 && !(await actor.evaluate((input) => input === document.activeElement)); step++)
      await page.keyboard.press("Tab")
    expect(await actor.evaluate((input) => input === document.activeElement)).toBe(true)
    await page.keyboard.type("Auditor@Example.com")
    await page.keyboard.press("Enter")
    const table = page.getByRole("table", { name: "Audit entries" })
    await expect.poll(async () => (await table.textContent())?.includes("Operator CLI")).toBe(false)
    expect(
      await table
        .getByRole("row")
        .filter({ has: page.getByRole("cell") })
        .count()
    ).toBe(1)

    await page.keyboard.press("Shift+Tab") // back from the actor field…
    for (let step = 0; step < 10; step++) {
      if ((await page.evaluate(() => document.activeElement?.textContent)) === "Clear filters") break
      await page.keyboard.press("Tab")
    }
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Clear filters")
    await page.keyboard.press("Enter")
    await expect.poll(async () => (await table.textContent())?.includes("Operator CLI")).toBe(true)
    expect(await actor.inputValue()).toBe("")
  })

  it("says 'No audit entries' when nothing matches, axe clean", async () => {
    await page.getByLabel("Action").selectOption("stream.key.rotate")
    await page.getByRole("button", { name: "Apply filters" }).click()
    await page.getByText("No audit entries").waitFor()
    expect(await seriousViolations(page)).toEqual([])
    if (SHOTS !== undefined) await page.screenshot({ path: `${SHOTS}/audit-empty-${viewport.name}.png`, fullPage: true })
    await page.getByRole("button", { name: "Clear filters" }).click()
    await page.getByRole("table", { name: "Audit entries" }).waitFor()
  })
})

describe("a long audit log", () => {
  it("loads older entries a page at a time", async () => {
    const db = await openDatabase({ dataDir: server.env.DATA_DIR ?? "" })
    try {
      for (let i = 1; i <= 60; i++) {
        await audit.record(
          db.kysely,
          audit.operator("bulk"),
          { action: "stream.set", target: `stream ${i}`, detail: `entry ${i}` },
          Date.now()
        )
      }
    } finally {
      await db.close()
    }
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: "reduce" })
    try {
      const page = await context.newPage()
      await signIn(page, server, "auditor@example.com", PASSWORD)
      await page.goto(`${server.url}/adminaudit`)
      const rows = page
        .getByRole("table", { name: "Audit entries" })
        .getByRole("row")
        .filter({ has: page.getByRole("cell") })
      await expect.poll(() => rows.count()).toBe(50)
      await page.getByRole("button", { name: "Load older entries" }).click()
      // the 60, and the two accounts, the setting and the ticket's status written before them
      await expect.poll(() => rows.count()).toBe(64)
      expect(await page.getByRole("button", { name: "Load older entries" }).count()).toBe(0)
    } finally {
      await context.close()
    }
  })
})
