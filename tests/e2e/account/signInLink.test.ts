import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { seriousViolations } from "../../support/axe.ts"
import { admin, freePort, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"

const OWNER = "traveller@example.com"
const PASSWORD = "owner passphrase"
/** The server's budget of wrong passwords per account from all networks together (DEFAULT_RATE_LIMITS). */
const BUDGET = 100
const PAUSED =
  "Many wrong passwords were tried for this account from other networks, so for 60 minutes it signs in new networks only by email. " +
  "If the password you entered is right, we have sent you a sign-in link: follow it to sign in."
const USED = "This sign-in link has already been used. Sign in with your email and password."
const NOT_VALID = "This sign-in link is not valid. Sign in with your email and password."

let smtp: SmtpPeer
let server: RunningServer
let browser: Browser

beforeAll(async () => {
  smtp = await startSmtpPeer()
  // the mailed link points at PUBLIC_URL, so the port is chosen before the server starts
  const port = await freePort()
  ;[server, browser] = await Promise.all([
    // behind one proxy (this test), the address it appends is the client's: strangers come from many networks
    startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, TRUST_PROXY: "true" }),
    launchBrowser()
  ])
  await admin(server, "user:create", "--email", OWNER, "--password", PASSWORD)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await smtp?.stop()
})

/** Strangers spend the account's wrong-password budget, each guess from a network of its own. */
const guessFromEverywhere = async (email: string) => {
  const guess = async (i: number) => {
    const response = await fetch(`${server.url}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.${100 + Math.floor(i / 250)}.${(i % 250) + 1}` },
      body: JSON.stringify({ email, password: `guess-${i}` })
    })
    expect(await response.json()).toMatchObject({ success: false, resultCode: 12 })
  }
  // a few at a time: each is a full password check
  for (let i = 0; i < BUDGET; i += 4) await Promise.all([i, i + 1, i + 2, i + 3].map(guess))
}

const newPage = async (width = 1440): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  return context.newPage()
}

const signInLinkMailed = async (): Promise<string> => {
  const mail = await smtp.waitForMessage((candidate) => candidate.to === OWNER && /sign-in link/.test(candidate.subject))
  const link = firstLink(mail.text)
  if (link === undefined) throw new Error(`no link in "${mail.subject}"`)
  expect(link).toMatch(new RegExp(`^${server.url}/sign-in-link\\?token=`))
  return link
}

describe("signing in by a mailed link while strangers guess the password, in Chromium against the real server", () => {
  let link = ""

  it("tells the owner on a new network why the password did not sign in, and mails a link that signs in", async () => {
    await guessFromEverywhere(OWNER)
    const page = await newPage()
    await page.goto(`${server.url}/login`)
    await page.getByLabel("Email").fill(OWNER)
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("alert").getByText(PAUSED, { exact: true }).waitFor()
    expect(page.url()).toBe(`${server.url}/login`)
    expect(await seriousViolations(page)).toEqual([])

    link = await signInLinkMailed()
    await page.goto(link)
    await page.waitForURL(`${server.url}/`)
    await page.getByRole("banner").waitFor()
    await page.getByRole("list", { name: "Streams" }).waitFor()
    expect(await page.evaluate(() => document.title)).toContain("Live streams")
    // the session outlives a reload: its token was stored
    await page.reload()
    await page.getByRole("list", { name: "Streams" }).waitFor()
    expect(page.url()).toBe(`${server.url}/`)
    await page.context().close()
  })

  it("says a used link has been used, with a way to sign in by password reachable from the keyboard", async () => {
    expect(link).not.toBe("")
    const page = await newPage(390)
    await page.goto(link)
    await page.getByRole("heading", { name: "Sign-in link not valid" }).waitFor()
    expect(await page.getByRole("alert").getByText(USED, { exact: true }).isVisible()).toBe(true)
    expect(await page.evaluate(() => document.title)).toContain("Sign in with a link")
    expect(await seriousViolations(page)).toEqual([])
    const signIn = page.getByRole("link", { name: "Sign in with your password" })
    for (let i = 0; i < 10 && !(await signIn.evaluate((element) => element === document.activeElement)); i += 1) {
      await page.keyboard.press("Tab")
    }
    expect(await signIn.evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.press("Enter")
    await page.waitForURL(`${server.url}/login`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    await page.context().close()
  })

  it("says a link the server never mailed is not valid", async () => {
    const page = await newPage()
    await page.goto(`${server.url}/sign-in-link?token=${"A".repeat(43)}`)
    await page.getByRole("heading", { name: "Sign-in link not valid" }).waitFor()
    expect(await page.getByRole("alert").getByText(NOT_VALID, { exact: true }).isVisible()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await page.context().close()
  })
})
