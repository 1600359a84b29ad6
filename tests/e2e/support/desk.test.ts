import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, freePort, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"
import { type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"
import { notification, PASSWORD, VIEWPORTS } from "./contactHarness.ts"

let smtp: SmtpPeer
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  smtp = await startSmtpPeer()
  const port = await freePort()
  ;[server, browser] = await Promise.all([
    startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, SIGN_IN_LIMIT_PER_MINUTE: "1000" }),
    launchBrowser()
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await smtp?.stop()
})

/** A customer's ticket, opened through the API as the contact page does. */
const openTicket = async (email: string, body: Record<string, unknown>) => {
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, isMobile: false })
  })
  const { token } = (await login.json()) as { token: string }
  const response = await fetch(`${server.url}/api/support/ticket`, {
    method: "POST",
    headers: { "content-type": "application/json", token },
    body: JSON.stringify(body)
  })
  expect(response.status).toBe(200)
}

const group = (page: Page, title: string) => page.getByRole("table", { name: title })

describe.each(VIEWPORTS)(
  "/adminsupport at $name width ($width px), in Chromium against the real server and a real SMTP peer",
  (viewport) => {
    const customer = `asker.${viewport.name}@example.com`
    const staff = `desk.${viewport.name}@example.com`
    const subject = `Sports One froze (${viewport.name})`
    let context: BrowserContext
    let page: Page

    beforeAll(async () => {
      await admin(server, "user:create", "--email", staff, "--password", PASSWORD, "--staff")
      await admin(server, "user:create", "--email", customer, "--password", PASSWORD)
      await openTicket(customer, {
        type: 3,
        subject,
        description: "Black screen, then the error box",
        playerContext: { stream: "Sports One", player: 1, errorCode: 2, browser: "Chrome 156 on Linux" }
      })
      await openTicket(customer, { type: 2, subject: `Charged twice (${viewport.name})`, description: "Two payments in November" })
      context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
      page = await context.newPage()
      await signIn(page, server, staff, PASSWORD)
      await page.goto(`${server.url}/adminsupport`)
    })
    afterAll(async () => context?.close())

    it("groups the tickets by status, 'None' for an empty group, axe clean", async () => {
      await expect.poll(() => page.title()).toMatch(/^Support Tickets/)
      const open = group(page, "Open Tickets")
      await open.getByRole("button", { name: subject }).waitFor()
      const row = open.getByRole("row").filter({ hasText: subject })
      const cells = await row.getByRole("cell").allTextContents()
      expect(cells.slice(0, 4)).toEqual([customer, "stream service", subject, "Black screen, then the error box"])
      expect(cells[4]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/)
      expect(cells[6]).toBe("---")
      expect(cells[7]).toBe("---")
      const resolved = page.getByRole("region", { name: "Resolved Tickets" })
      expect(await resolved.getByRole("row").count()).toBe(1)
      expect(await resolved.locator("xpath=following-sibling::p[1]").textContent()).toBe("None")
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      expect(await seriousViolations(page)).toEqual([])
    })

    it("filters by category and finds by words", async () => {
      await page.getByLabel("Category").selectOption({ label: "Billing" })
      await expect.poll(() => group(page, "Open Tickets").getByRole("button", { name: subject }).count()).toBe(0)
      expect(
        await group(page, "Open Tickets")
          .getByRole("button", { name: `Charged twice (${viewport.name})` })
          .count()
      ).toBe(1)
      await page.getByLabel("Category").selectOption({ label: "All categories" })
      await page.getByLabel("Search subject and description").fill("black SCREEN")
      await expect.poll(() => group(page, "Open Tickets").getByRole("button").allTextContents()).toEqual([subject])
      await page.getByLabel("Search subject and description").fill("")
    })

    it("opens a ticket by keyboard with its player context, and Escape gives focus back", async () => {
      const opener = group(page, "Open Tickets").getByRole("button", { name: subject })
      await opener.focus()
      await page.keyboard.press("Enter")
      const dialog = page.getByRole("dialog", { name: subject })
      await dialog.waitFor()
      const details = await dialog.getByRole("definition").allTextContents()
      expect(details).toEqual([
        "stream service",
        customer,
        subject,
        "Black screen, then the error box",
        "Sports One",
        "TV player",
        "A network error occurred (code 2)",
        "Chrome 156 on Linux"
      ])
      expect(await dialog.getByRole("button", { name: "OPEN" }).getAttribute("aria-pressed")).toBe("true")
      expect(await seriousViolations(page)).toEqual([])
      await page.keyboard.press("Escape")
      await dialog.waitFor({ state: "detached" })
      // Radix gives focus back from a timer once the dialog is gone
      await expect.poll(() => opener.evaluate((element) => element === document.activeElement)).toBe(true)
    })

    it("moves the ticket to In Progress, reloads the list and mails the customer", async () => {
      await group(page, "Open Tickets").getByRole("button", { name: subject }).click()
      const dialog = page.getByRole("dialog", { name: subject })
      await dialog.getByRole("button", { name: "IN PROGRESS" }).click()
      await expect.poll(() => dialog.getByRole("button", { name: "IN PROGRESS" }).getAttribute("aria-pressed")).toBe("true")
      const mail = await smtp.waitForMessage((candidate) => candidate.to === customer && candidate.subject.startsWith("In progress:"))
      expect(mail.text).toContain(`Your ticket "${subject}" is now in progress.`)
      // choosing the status it has now does nothing
      await dialog.getByRole("button", { name: "IN PROGRESS" }).click()
      await dialog.getByRole("button", { name: "Close" }).click()
      await group(page, "In Progress").getByRole("button", { name: subject }).waitFor()
      expect(await group(page, "Open Tickets").getByRole("button", { name: subject }).count()).toBe(0)
    })

    it("mails a reply through the outbox: 'Success', 'Email dded to qeue.'", async () => {
      await group(page, "In Progress").getByRole("button", { name: subject }).click()
      const dialog = page.getByRole("dialog", { name: subject })
      await dialog.getByRole("button", { name: "Send Email" }).click()
      await dialog.getByText("Please enter a message").waitFor()
      await dialog.getByLabel("Email Response").fill("We restarted Sports One.\nIt plays again.")
      await dialog.getByRole("button", { name: "Send Email" }).click()
      await notification(page, "Email dded to qeue.").waitFor()
      expect(await notification(page, "Success").count()).toBe(1)
      expect(await dialog.getByLabel("Email Response").inputValue()).toBe("")
      const mail = await smtp.waitForMessage((candidate) => candidate.to === customer && candidate.subject.startsWith("Re:"))
      expect(mail.subject).toBe(`Re: ${subject} [StreamHub support]`)
      expect(mail.text).toContain("We restarted Sports One.")
      await dialog.getByRole("button", { name: "Close" }).click()
    })
  }
)
