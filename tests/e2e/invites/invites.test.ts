import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { seriousViolations } from "../../support/axe.ts"
import { admin, freePort, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"
import { type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"

const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const

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
  // a point is worth $2 and a month $5 less the one-month plan's 5 %: $4.75, so at most 2 points fit
  await admin(server, "settings:set", "--key", "pricePerRewardPoint", "--value", "2")
  await admin(server, "settings:set", "--key", "subscriptionPrice", "--value", "5")
  await admin(server, "settings:set", "--key", "discountRates", "--value", "5,10")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await smtp?.stop()
})

/** Registers through the invite link's token as a visitor would, and follows the mailed verification link when asked. */
const registerThrough = async (link: string, email: string) => {
  const invite = new URL(link).searchParams.get("invite") ?? ""
  const response = await fetch(`${server.url}/api/users/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email.split("@")[0], email, password: PASSWORD, invitationToken: invite })
  })
  expect(await response.json()).toMatchObject({ success: true, resultCode: 1 })
  return {
    verify: async () => {
      const mail = await smtp.waitForMessage((candidate) => candidate.to === email)
      const token = new URL(firstLink(mail.text) ?? "").searchParams.get("token")
      const verified = await fetch(`${server.url}/api/users/verify-new-email-token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token })
      })
      expect(await verified.json()).toMatchObject({ resultCode: 1 })
    }
  }
}

const table = (page: Page, caption: string) => page.getByRole("table", { name: caption })
const notification = (page: Page, text: string) => page.getByRole("list", { name: "Notifications" }).getByText(text, { exact: true })

describe.each(VIEWPORTS)("/invites at $name width ($width px), in Chromium against the real server", (viewport) => {
  const email = `inviter.${viewport.name}@example.com`
  let context: BrowserContext
  let page: Page
  let link: string

  beforeAll(async () => {
    await admin(server, "user:create", "--email", email, "--password", PASSWORD)
    link = (await admin(server, "invite:link", "--email", email)).trim().split("\n")[0] ?? ""
    context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
    page = await context.newPage()
    await signIn(page, server, email, PASSWORD)
  })
  afterAll(async () => context?.close())

  it("shows the points, their price, the link and empty tables to a new member, axe clean", async () => {
    if (viewport.name === "phone") {
      await page.getByRole("button", { name: "Menu" }).click()
      await page.locator("#mobile-menu").getByRole("link", { name: "Invites" }).click()
    } else {
      await page.getByRole("banner").getByRole("link", { name: "Invites" }).click()
    }
    await page.waitForURL(`${server.url}/invites`)
    // the title follows the page in an effect, just after the address changes
    await expect.poll(() => page.title()).toMatch(/^Invites/)
    const stats = page.getByRole("definition")
    await expect.poll(() => stats.allTextContents()).toEqual(["0", "$2"])
    expect(await page.getByRole("textbox", { name: "Invite link" }).inputValue()).toBe(link)
    expect(await page.getByText(/Nobody is waiting to verify their email/).isVisible()).toBe(true)
    expect(await page.getByText(/No completed invitations yet/).isVisible()).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
  })

  it("copies the link by keyboard when the clipboard is allowed", async () => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url })
    await page.getByRole("button", { name: "Copy link" }).focus()
    await page.keyboard.press("Enter")
    await notification(page, "The text is now on your clipboard").waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await context.clearPermissions()
  })

  it("says 'Access to clipboard failed' when the browser refuses the clipboard", async () => {
    // permissions belong to the page's own browser context, which CDP names by id
    const pageCdp = await context.newCDPSession(page)
    const { targetInfo } = await pageCdp.send("Target.getTargetInfo")
    await pageCdp.detach()
    const browserContextId = targetInfo.browserContextId
    const cdp = await browser.newBrowserCDPSession()
    for (const name of ["clipboard-write", "clipboard-read"]) {
      await cdp.send("Browser.setPermission", { permission: { name }, setting: "denied", origin: server.url, browserContextId })
    }
    await page.getByRole("button", { name: "Copy link" }).click()
    await notification(page, "Access to clipboard failed").waitFor()
    await cdp.send("Browser.resetPermissions", { browserContextId })
    await cdp.detach()
  })

  it("lists an invitee as registered, then as completed with a point once they verify", async () => {
    const friend = `friend.${viewport.name}@example.com`
    const invitee = await registerThrough(link, friend)
    await page.reload()
    await table(page, "Registered").getByRole("cell", { name: friend }).waitFor()
    await invitee.verify()
    await page.reload()
    const row = table(page, "Completed").getByRole("row").filter({ hasText: friend })
    await row.waitFor()
    expect(await row.getByRole("cell").nth(2).textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/)
    expect(await page.getByText(/Nobody is waiting to verify their email/).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole("definition").first().textContent()).toBe("1")
  })

  it("offers points only while their value fits in the discounted month, and shows what it would cost", async () => {
    await admin(server, "rewards:adjust", "--email", email, "--points", "4")
    await page.reload()
    const select = page.getByLabel("Points to redeem")
    await expect.poll(() => select.locator("option").allTextContents()).toEqual(["0 points", "1 point", "2 points"])
    expect(await page.getByText("Next month would cost").textContent()).toBe("Next month would cost $4.75")
    await select.focus()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    await expect.poll(() => select.inputValue()).toBe("2")
    expect(await page.getByText("Next month would cost").textContent()).toBe("Next month would cost $0.75")
    expect(await page.getByText(/Nothing is charged while the site is free/).isVisible()).toBe(true)
  })
})
