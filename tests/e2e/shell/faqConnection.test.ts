import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "faq@example.com"
const PASSWORD = "correct horse battery"
const QUESTIONS = [
  "Can I cast streams to my TV?",
  "Is the site safe to use?",
  "Which browsers are supported?",
  "How do I contact you?",
  "Can I share my account?",
  "Do I have to pay?"
]
/** The site behind a TLS-terminating proxy: every request to this origin is answered by the test server. */
const HTTPS_ORIGIN = "https://streams.example"

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const faq = async (page: Page) => {
  await page.goto(new URL("/support", page.url()).href)
  await page.getByRole("heading", { name: "FAQ", level: 1 }).waitFor()
  const questions = await page.getByRole("term").allTextContents()
  const answers = await page.getByRole("definition").allTextContents()
  return { questions, answers, safety: answers[QUESTIONS.indexOf("Is the site safe to use?")] ?? "" }
}

describe("the FAQ says only what the configuration makes true, in Chromium against the real server", () => {
  it("over plain http, six pairs and no claim that connections are encrypted", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    await signIn(page, server, EMAIL, PASSWORD)
    const { questions, answers, safety } = await faq(page)
    expect(questions).toEqual(QUESTIONS)
    expect(answers).toHaveLength(6)
    expect(answers.join(" ")).not.toMatch(/encrypt|https|secure connection/i)
    expect(safety).toMatch(/passwords are stored only as secure hashes/i)
    await context.close()
  })

  it("over https, says that connections to the site are encrypted", async () => {
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.route(`${HTTPS_ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url())
      const response = await route.fetch({ url: `${server.url}${url.pathname}${url.search}` })
      await route.fulfill({ response })
    })
    const page = await context.newPage()
    await page.goto(`${HTTPS_ORIGIN}/login`)
    await page.getByLabel("Email").fill(EMAIL)
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${HTTPS_ORIGIN}/`)
    const { questions, answers, safety } = await faq(page)
    expect(await page.evaluate(() => window.location.protocol)).toBe("https:")
    expect(questions).toEqual(QUESTIONS)
    expect(answers).toHaveLength(6)
    expect(safety).toMatch(/connections to this site are encrypted/i)
    await context.close()
  })
})
