import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { STREAMS_FAILED_MESSAGE } from "../../../src/machines/streams/streamSelectionMachine.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "requests@example.com"
const PASSWORD = "correct horse battery"

let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  page = await context.newPage()
  await signIn(page, server, EMAIL, PASSWORD)
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.stop()
})

const ownTickets = (): Promise<Array<{ subject: string; description: string }>> =>
  page.evaluate(async () => {
    const response = await fetch("/api/support/tickets", { headers: { Token: localStorage.getItem("Token") ?? "" } })
    return ((await response.json()) as { data: Array<{ subject: string; description: string }> }).data
  })

describe("requesting a stream", () => {
  it("works while the streams cannot be loaded: asking for one needs no grid", async () => {
    // the grid's own answer fails; the request goes to the real server
    await page.route("**/api/streams/all**", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ success: false, detail: "Down for a moment" }) })
    )
    await page.goto(`${server.url}/`)
    await page.getByRole("alert").filter({ hasText: STREAMS_FAILED_MESSAGE }).waitFor()
    await page.getByRole("button", { name: "Request a stream" }).click()
    const dialog = page.getByRole("dialog", { name: "Request a stream" })
    await dialog.waitFor()
    await dialog.getByLabel("Stream you would like to watch").fill("The cup final on Sports Three")
    await dialog.getByRole("button", { name: "Submit" }).click()
    await page.getByText("Your stream request has been submitted!").waitFor()
    await dialog.waitFor({ state: "hidden" })
    expect(await ownTickets()).toEqual([
      expect.objectContaining({ subject: "stream request", description: "The cup final on Sports Three" })
    ])
    await page.unroute("**/api/streams/all**")
  })
})
