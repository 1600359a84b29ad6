import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const CUSTOMER = "titles@example.com"
const STAFF = "titles.staff@example.com"
const PASSWORD = "correct horse battery"

const PUBLIC_TITLES: ReadonlyArray<readonly [string, string]> = [
  ["/login", "Sign in"],
  ["/register?invite=bad", "Create your account"],
  ["/verify?token=x", "Verify your email"],
  ["/sign-in-link?token=x", "Sign in with a link"],
  ["/forgot-password", "Forgot password"],
  ["/password-reset-confirmation?token=x", "Reset your password"],
  ["/confirm-email-change?token=x", "Confirm email change"]
]

const CUSTOMER_TITLES: ReadonlyArray<readonly [string, string]> = [
  ["/", "Live streams"],
  ["/stream-schedule", "Stream Schedule"],
  ["/invites", "Invites"],
  ["/support", "FAQ"],
  ["/contactus", "Contact Us"],
  ["/profile", "Account settings"],
  ["/reminders", "Reminders"],
  ["/subscription", "Subscription"],
  ["/transactions", "Transactions"],
  // the players carry what plays
  ["/player?default=0", "Demo Channel 1"],
  ["/playersldp?default=1", "Demo Channel 2"],
  ["/no-such-page", "Page not found"],
  // staff pages do not exist for a customer
  ["/adminreports", "Page not found"],
  ["/adminsupport", "Page not found"],
  ["/adminaudit", "Page not found"]
]

const STAFF_TITLES: ReadonlyArray<readonly [string, string]> = [
  ["/adminreports", "Admin Reports"],
  ["/adminsupport", "Support Tickets"],
  ["/adminaudit", "Audit Log"]
]

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", CUSTOMER, "--password", PASSWORD)
  await admin(server, "user:create", "--email", STAFF, "--password", PASSWORD, "--staff")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const titleOf = async (page: Page, path: string): Promise<string> => {
  await page.goto(`${server.url}${path}`)
  await page.getByRole("heading", { level: 1 }).first().waitFor()
  return page.title()
}

describe("each page's document title, in Chromium against the real server", () => {
  let context: BrowserContext
  let page: Page
  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    page = await context.newPage()
  })
  afterAll(async () => context?.close())

  it.each(PUBLIC_TITLES)("%s is '%s · StreamHub'", async (path, title) => {
    await titleOf(page, path)
    await expect.poll(() => page.title()).toBe(`${title} · StreamHub`)
  })

  it("a customer's pages", async () => {
    await signIn(page, server, CUSTOMER, PASSWORD)
    for (const [path, title] of CUSTOMER_TITLES) {
      await titleOf(page, path)
      await expect.poll(async () => `${path}: ${await page.title()}`).toBe(`${path}: ${title} · StreamHub`)
    }
  })

  it("follows navigation inside the app, without a reload", async () => {
    await titleOf(page, "/")
    await page.getByRole("banner").getByRole("link", { name: "Invites", exact: true }).click()
    await page.waitForURL(`${server.url}/invites`)
    await expect.poll(() => page.title()).toBe("Invites · StreamHub")
    await page.goBack()
    await expect.poll(() => page.title()).toBe("Live streams · StreamHub")
  })

  it("after /logout, titles the sign-in page it lands on", async () => {
    await page.goto(`${server.url}/logout`)
    await page.waitForURL(`${server.url}/login`)
    await expect.poll(() => page.title()).toBe("Sign in · StreamHub")
  })

  it("a staff member's pages", async () => {
    await signIn(page, server, STAFF, PASSWORD)
    for (const [path, title] of STAFF_TITLES) {
      await titleOf(page, path)
      await expect.poll(async () => `${path}: ${await page.title()}`).toBe(`${path}: ${title} · StreamHub`)
    }
  })

  it("names the site as the operator set it", async () => {
    await admin(server, "settings:set", "--key", "siteName", "--value", "Match Night")
    try {
      await titleOf(page, "/invites")
      await expect.poll(() => page.title()).toBe("Invites · Match Night")
    } finally {
      await admin(server, "settings:set", "--key", "siteName", "--value", "StreamHub")
    }
  })
})
