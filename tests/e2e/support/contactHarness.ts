import type { Browser, BrowserContext, Page } from "playwright-core"
import { expect } from "vitest"
import { admin, type RunningServer, signIn } from "../../support/e2eHarness.ts"

export const PASSWORD = "correct horse battery"
export const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const
export type Viewport = (typeof VIEWPORTS)[number]

/** A new account, signed in at the given width. */
export const signedInPage = async (
  server: RunningServer,
  browser: Browser,
  email: string,
  viewport: Viewport
): Promise<{ context: BrowserContext; page: Page }> => {
  await admin(server, "user:create", "--email", email, "--password", PASSWORD)
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
  const page = await context.newPage()
  await signIn(page, server, email, PASSWORD)
  return { context, page }
}

export const notification = (page: Page, text: string) =>
  page.getByRole("list", { name: "Notifications" }).getByText(text, { exact: true }).last()

export const fieldMessage = (page: Page, id: string) => page.locator(`#${id}-error`)

/** The id of the focused element, to check where the keyboard is. */
export const focusedId = (page: Page): Promise<string> => page.evaluate(() => document.activeElement?.id ?? "")

/** The caller's own tickets as the API answers them, with the page's own session. */
export const myTickets = (page: Page): Promise<Array<Record<string, unknown>>> =>
  page.evaluate(async () => {
    const response = await fetch("/api/support/tickets", { headers: { Token: localStorage.getItem("Token") ?? "" } })
    return ((await response.json()) as { data: Array<Record<string, unknown>> }).data
  })

/** Opens a ticket through the API, as another tab of the same session would. */
export const openTicketByApi = (page: Page, subject: string): Promise<number> =>
  page.evaluate(async (text) => {
    const response = await fetch("/api/support/ticket", {
      method: "POST",
      headers: { "content-type": "application/json", Token: localStorage.getItem("Token") ?? "" },
      body: JSON.stringify({ type: 5, subject: text, description: "Opened through the API" })
    })
    return response.status
  }, subject)

/** The ticket list's item whose heading is `subject`. */
export const listedTicket = (page: Page, subject: string) =>
  page
    .getByRole("region", { name: "Your tickets" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: subject, exact: true }) })

export const expectEnGbDate = (text: string | null) => expect(text).toMatch(/\d{2}\/\d{2}\/\d{4}/)
