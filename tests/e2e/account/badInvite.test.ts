import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe("a bad invite link, in Chromium against the real server", () => {
  it("says 'Oops!' with the server's detail and offers the way to sign in", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    const page = await context.newPage()
    const detail = (await (await fetch(`${server.url}/api/invitations/invitation/bad`)).json()) as { readonly detail: string }
    await page.goto(`${server.url}/register?invite=bad`)
    await page.getByRole("heading", { name: "Oops!" }).waitFor()
    expect(detail.detail.length).toBeGreaterThan(0)
    expect(await page.getByText(detail.detail, { exact: true }).isVisible()).toBe(true)
    await page.getByRole("link", { name: "Sign in" }).click()
    await page.waitForURL(`${server.url}/login`)
    await page.getByRole("heading", { name: "Sign in" }).waitFor()
    await context.close()
  })
})
