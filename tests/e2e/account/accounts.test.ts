import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { firstLink } from "../../../src/server/mail/messages.ts"
import { admin, freePort, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { type SmtpPeer, startSmtpPeer } from "../../support/smtpPeer.ts"

const INVITER = "inviter@example.com"
const MEMBER = "new.member@example.com"
const FIRST_PASSWORD = "first passphrase"
const RESET_PASSWORD = "second passphrase"
const CHANGED_EMAIL = "member.moved@example.com"

let smtp: SmtpPeer
let server: RunningServer
let browser: Browser
let inviteLink: string

beforeAll(async () => {
  smtp = await startSmtpPeer()
  // the mailed links point at PUBLIC_URL, so the port is chosen before the server starts
  const port = await freePort()
  ;[server, browser] = await Promise.all([
    startServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      SIGN_IN_LIMIT_PER_MINUTE: "1000"
    }),
    launchBrowser()
  ])
  await admin(server, "user:create", "--email", INVITER, "--password", "inviter passphrase")
  inviteLink = (await admin(server, "invite:link", "--email", INVITER)).trim().split("\n")[0] ?? ""
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await smtp?.stop()
})

const openPage = async (url: string): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  const page = await context.newPage()
  await page.goto(url.startsWith("http") ? url : `${server.url}${url}`)
  return page
}

/** The link in the newest mail to `to` whose subject matches. */
const mailedLink = async (to: string, subject: RegExp): Promise<string> => {
  const mail = await smtp.waitForMessage((candidate) => candidate.to === to && subject.test(candidate.subject))
  const link = firstLink(mail.text)
  if (link === undefined) throw new Error(`no link in "${mail.subject}"`)
  expect(link.startsWith(server.url)).toBe(true)
  return link
}

const signIn = async (page: Page, email: string, password: string) => {
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password", { exact: true }).fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL(`${server.url}/`)
  await page.getByRole("banner").waitFor()
}

describe("account flows, in Chromium against the real server and a real SMTP peer", () => {
  it("registers through an invite link, verifies by mail and signs in", async () => {
    expect(inviteLink).toMatch(/\/register\?invite=/)
    const page = await openPage(inviteLink)
    await page.getByRole("heading", { name: "Create your account" }).waitFor()
    await page.getByLabel("Email").fill("New.Member@Example.com")
    await page.getByLabel("Password", { exact: true }).fill(FIRST_PASSWORD)
    await page.getByLabel("Confirm password").fill(FIRST_PASSWORD)
    await page.getByRole("button", { name: "Create account" }).click()
    await page.getByRole("heading", { name: "Success! Account created" }).waitFor()
    await page.getByText(MEMBER).waitFor()

    await page.goto(await mailedLink(MEMBER, /Confirm your email/))
    await page.getByRole("heading", { name: "Account Verified" }).waitFor()
    await page.getByRole("link", { name: "Sign in" }).click()
    await page.waitForURL("**/login")
    await signIn(page, MEMBER, FIRST_PASSWORD)
    await page.context().close()
  })

  it("says 'Oops!' and offers the login page for an email that is already registered", async () => {
    const page = await openPage(inviteLink)
    await page.getByLabel("Email").fill(MEMBER)
    await page.getByLabel("Password", { exact: true }).fill(FIRST_PASSWORD)
    await page.getByLabel("Confirm password").fill(FIRST_PASSWORD)
    await page.getByRole("button", { name: "Create account" }).click()
    await page.getByRole("heading", { name: "Oops!" }).waitFor()
    await page.getByRole("link", { name: "Go to login page" }).click()
    await page.waitForURL("**/login")
    await page.context().close()
  })

  it("resets a forgotten password through the mailed link", async () => {
    const page = await openPage("/login")
    await page.getByRole("link", { name: "Forgot password?" }).click()
    // the sign-in form has an Email field too: fill the new page's, once its chunk has loaded
    await page.getByRole("heading", { name: "Forgot password" }).waitFor()
    await page.getByLabel("Email").fill(MEMBER.toUpperCase())
    // submitted from the keyboard
    await page.getByLabel("Email").press("Enter")
    await page.getByText("If the email is registered, reset instructions will be sent.").waitFor()

    await page.goto(await mailedLink(MEMBER, /Reset your/))
    await page.getByRole("heading", { name: "Reset your password" }).waitFor()
    const email = page.getByLabel("Email")
    expect(await email.inputValue()).toBe(MEMBER)
    expect(await email.getAttribute("readonly")).not.toBeNull()
    await page.getByLabel("New password", { exact: true }).fill(RESET_PASSWORD)
    await page.getByLabel("Confirm new password").fill(RESET_PASSWORD)
    await page.getByRole("button", { name: "Update password" }).click()
    await page.getByRole("heading", { name: "Password has been updated" }).waitFor()
    await page.getByRole("link", { name: "Go to login page" }).click()
    await page.waitForURL("**/login")
    await signIn(page, MEMBER, RESET_PASSWORD)
    await page.context().close()
  })

  it("changes the email on /profile, confirms it from the new mailbox and signs in with it", async () => {
    const page = await openPage("/login")
    await signIn(page, MEMBER, RESET_PASSWORD)
    await page.goto(`${server.url}/profile`)
    const details = page.getByRole("region", { name: "Update email or username" })
    expect(await details.getByLabel("Username", { exact: true }).inputValue()).toBe("new.member")
    await details.getByLabel("Email", { exact: true }).fill(CHANGED_EMAIL)
    await details.getByLabel("Password", { exact: true }).fill(RESET_PASSWORD)
    await details.getByRole("button", { name: "Save changes" }).click()
    await page.getByText(`Please follow the verification instructions sent to ${CHANGED_EMAIL}`).waitFor()

    await page.goto(await mailedLink(CHANGED_EMAIL, /Confirm your new email/))
    await page.getByRole("heading", { name: "Email updated" }).waitFor()
    await page.getByText(CHANGED_EMAIL).waitFor()
    await page.getByRole("link", { name: "Go Home" }).click()
    await page.waitForURL(`${server.url}/`)
    await page.context().close()

    const fresh = await openPage("/login")
    await signIn(fresh, CHANGED_EMAIL, RESET_PASSWORD)
    await fresh.context().close()
  })

  it("logs out all devices from /profile", async () => {
    const [laptop, phone] = [await openPage("/login"), await openPage("/login")]
    await signIn(laptop, CHANGED_EMAIL, RESET_PASSWORD)
    await signIn(phone, CHANGED_EMAIL, RESET_PASSWORD)
    await laptop.goto(`${server.url}/profile`)
    await laptop.getByRole("button", { name: "Log out all devices" }).click()
    await laptop.getByRole("button", { name: "Confirm: log out all devices" }).click()
    await laptop.waitForURL("**/login")
    await phone.reload()
    await phone.waitForURL("**/login")
    await laptop.context().close()
    await phone.context().close()
  })

  it("says what happened, and for how long, when wrong current passwords on /profile pause the account's password checks", async () => {
    const email = "forgetful@example.com"
    const password = "forgetful passphrase"
    await admin(server, "user:create", "--email", email, "--password", password)
    const page = await openPage("/login")
    await signIn(page, email, password)
    await page.goto(`${server.url}/profile`)
    const form = page.getByRole("region", { name: "Update password" })
    const attempt = async (current: string) => {
      await form.getByLabel("Current password", { exact: true }).fill(current)
      await form.getByLabel("New password", { exact: true }).fill("a new passphrase")
      await form.getByLabel("Confirm new password", { exact: true }).fill("a new passphrase")
      await form.getByRole("button", { name: "Update password" }).click()
    }
    // the third wrong password in a row from one network pauses its checks for a few seconds
    for (let i = 0; i < 3; i += 1) {
      await attempt(`wrong guess ${i}`)
      await page.getByText("Incorrect password").last().waitFor()
      await page.getByRole("button", { name: "Dismiss notification" }).last().click()
    }
    await attempt(password)
    await page
      .getByText(
        /Too many wrong passwords for this account, so password checks are paused for \d seconds\. Try again then, or use Forgot password on the sign-in page\./
      )
      .waitFor()
    expect(await page.getByText("Please try again.").count()).toBe(0)
    await page.context().close()
  })
})
