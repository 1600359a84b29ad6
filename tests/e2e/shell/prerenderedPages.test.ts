import { readFileSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page, Route } from "playwright-core"
import type { Manifest } from "vite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { root } from "../../support/staticGraph.ts"

const OWNER = "early@example.com"
const PASSWORD = "early bird passphrase"

/** Where the screenshots before and after hydration go, to be looked at. */
const SHOTS = join(tmpdir(), "streamhub-prerendered")

const PAGES = [
  { address: "/login", heading: "Sign in" },
  { address: "/register?invite=no-such-invite", heading: "Checking your invite…" },
  { address: "/verify?token=no-such-token", heading: undefined },
  { address: "/forgot-password", heading: "Forgot password" },
  { address: "/password-reset-confirmation?token=no-such-token", heading: undefined },
  { address: "/confirm-email-change?token=no-such-token", heading: undefined }
] as const

/** The entry's script and those it imports statically, as built: what runs before the app's chunk. */
const entryScripts = (): Array<string> => {
  const manifest = JSON.parse(readFileSync(join(root, "dist", ".vite", "manifest.json"), "utf8")) as Manifest
  const entry = manifest["index.html"]
  if (entry === undefined) throw new Error("the build has no entry: run npm run build")
  return [entry.file, ...(entry.imports ?? []).map((name) => manifest[name]?.file ?? name)].map((file) => `/${file}`)
}

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", OWNER, "--password", PASSWORD)
  await mkdir(SHOTS, { recursive: true })
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** A page whose scripts are held back until `release` is called; what the console says is kept. */
const heldPage = async (width: number): Promise<{ page: Page; context: BrowserContext; release: () => void; said: Array<string> }> => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const said: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") said.push(`${message.type()}: ${message.text()}`)
  })
  page.on("pageerror", (error) => said.push(`pageerror: ${error.message}`))
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/.*\.js$/, async (route: Route) => {
    await released
    await route.continue()
  })
  return { page, context, release, said }
}

/** The page's HTML as the server sends it to a browser. */
const servedPage = async (address: string): Promise<string> => {
  const response = await fetch(`${server.url}${address}`, { headers: { accept: "text/html" } })
  expect(response.status).toBe(200)
  return response.text()
}

/** Whether React has taken over the page: it marks the nodes it owns. */
const hydrated = (page: Page) =>
  page.waitForFunction(() => {
    const main = document.querySelector("main")
    return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"))
  })

const isHydrated = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector("main")
    return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"))
  })

/** Marks the prerendered <main>, so the test can tell hydration (the same node) from a render from scratch (a new one). */
const markMain = (page: Page) =>
  page.evaluate(() => {
    ;(window as unknown as { prerenderedMain: Element | null }).prerenderedMain = document.querySelector("main")
  })
const sameMain = (page: Page) =>
  page.evaluate(() => document.querySelector("main") === (window as unknown as { prerenderedMain: Element | null }).prerenderedMain)

describe("the public pages, prerendered at build time and hydrated, in Chromium against the real server", () => {
  it("answers the public routes with their page already rendered, other routes with the plain page", async () => {
    const html = servedPage
    for (const { address } of PAGES) expect(await html(address), address).toContain('<div id="root" data-prerendered="StreamHub">')
    expect(await html("/login/")).toContain('<label class="')
    expect(await html("/login")).toContain("<title>Sign in · StreamHub</title>")
    expect(await html("/login")).toContain('<form class="')
    expect(await html("/login")).toMatch(/<form [^>]*method="post"/)
    // without the parameter it needs, the page goes elsewhere: the app renders that itself
    for (const address of ["/register", "/register?invite=", "/verify", "/", "/profile", "/player?default=1"]) {
      expect(await html(address), address).toContain('<div id="root"></div>')
    }
  })

  it.each(PAGES)("shows $address before its script and hydrates it without a mismatch", async ({ address, heading }) => {
    const { page, context, release, said } = await heldPage(1440)
    await page.goto(`${server.url}${address}`, { waitUntil: "commit" })
    await page.locator("main").waitFor()
    if (heading !== undefined) await page.getByRole("heading", { name: heading }).waitFor()
    await markMain(page)
    expect(await isHydrated(page)).toBe(false)
    release()
    await hydrated(page)
    // the page's own calls answer (a bad token, a bad invite) and the page moves on, in place
    await page.waitForTimeout(500)
    expect(await sameMain(page)).toBe(true)
    expect(said).toEqual([])
    await context.close()
  })

  it("keeps what the visitor typed before the script arrived, and signs in with it", async () => {
    const { page, context, release, said } = await heldPage(390)
    await page.goto(`${server.url}/login`, { waitUntil: "commit" })
    await page.getByLabel("Email").fill(OWNER)
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD)
    // the visitor is back in the email field (a field with no text selection) as the app takes over
    await page.getByLabel("Email").focus()
    await markMain(page)
    expect(await isHydrated(page)).toBe(false)
    release()
    await hydrated(page)
    await page.waitForTimeout(300)
    expect(await sameMain(page)).toBe(true)
    expect(await page.getByLabel("Email").inputValue()).toBe(OWNER)
    expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe(PASSWORD)
    // the field is the form's now: a key typed after hydration adds to what was there
    await page.getByLabel("Email").press("End")
    await page.getByLabel("Email").press("x")
    expect(await page.getByLabel("Email").inputValue()).toBe(`${OWNER}x`)
    await page.getByLabel("Email").press("Backspace")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${server.url}/`)
    await page.getByRole("heading", { name: "Live streams" }).waitFor()
    expect(said).toEqual([])
    await context.close()
  })

  it("holds a form sent before the script arrived, and sends it once the app has the page", async () => {
    const { page, context, release, said } = await heldPage(1440)
    const pageRequests: Array<string> = []
    page.on("request", (request) => {
      if (request.resourceType() === "document") pageRequests.push(`${request.method()} ${request.url()}`)
    })
    // the entry and what it imports go through (the route added last is asked first): it holds the submit
    const entryFiles = entryScripts()
    await page.route(
      (url) => entryFiles.includes(url.pathname),
      (route) => route.continue()
    )
    const entry = page.waitForResponse((response) => response.url().endsWith(entryFiles[0] ?? "?"))
    await page.goto(`${server.url}/login`, { waitUntil: "commit" })
    await page.getByLabel("Email").fill(OWNER)
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD)
    await entry
    await page.waitForTimeout(500)
    expect(await isHydrated(page)).toBe(false)
    await page.getByLabel("Password", { exact: true }).press("Enter")
    await page.waitForTimeout(300)
    expect(page.url()).toBe(`${server.url}/login`)
    release()
    await page.waitForURL(`${server.url}/`)
    await page.getByRole("heading", { name: "Live streams" }).waitFor()
    expect(pageRequests).toEqual([`GET ${server.url}/login`])
    expect(said).toEqual([])
    await context.close()
  })

  it("answers a form the browser sent itself, with no script at all, with the page again, and no password in an address", async () => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: OWNER, password: PASSWORD }),
      redirect: "manual"
    })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe("/login")
    // the API's own calls are untouched
    const login = await fetch(`${server.url}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: OWNER, password: PASSWORD, isMobile: false })
    })
    expect(await login.json()).toMatchObject({ success: true })
  })

  it("shows only the maintenance notice while maintenance mode is on, the form never sent", async () => {
    await admin(server, "maintenance:on", "--title", "Planned works", "--first", "Upgrading", "--second", "Back soon")
    try {
      expect(await servedPage("/login")).toContain('<div id="root"></div>')
      const { page, context, release, said } = await heldPage(1440)
      await page.goto(`${server.url}/login`, { waitUntil: "commit" })
      release()
      await page.getByText("Planned works").waitFor()
      expect(await page.getByLabel("Email").count()).toBe(0)
      expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0)
      expect(said).toEqual([])
      await context.close()
    } finally {
      await admin(server, "maintenance:off")
    }
  })

  it("renders the page from scratch for a site its operator named otherwise, with that name", async () => {
    await admin(server, "settings:set", "--key", "siteName", "--value", "Match Night")
    try {
      // the server sends the plain page: no form under the old name to be swapped as one types
      expect(await servedPage("/login")).toContain('<div id="root"></div>')
      const { page, context, release, said } = await heldPage(1440)
      await page.goto(`${server.url}/login`, { waitUntil: "commit" })
      expect(await page.getByLabel("Email").count()).toBe(0)
      release()
      await page.getByRole("link", { name: "Match Night" }).waitFor()
      await page.getByLabel("Email").fill(OWNER)
      expect(await page.getByLabel("Email").inputValue()).toBe(OWNER)
      expect(said).toEqual([])
      await context.close()
    } finally {
      await admin(server, "settings:set", "--key", "siteName", "--value", "StreamHub")
    }
  })

  for (const width of [1440, 390]) {
    it(`looks the same before and after hydration at ${width} px, with no serious axe finding`, async () => {
      for (const [name, address] of [
        ["login", "/login"],
        ["register", "/register?invite=no-such-invite"],
        ["forgot-password", "/forgot-password"]
      ] as const) {
        const { page, context, release } = await heldPage(width)
        await page.goto(`${server.url}${address}`, { waitUntil: "commit" })
        await page.locator("main").waitFor()
        // styled from the page's own stylesheets, while its scripts are still held back
        await page.waitForFunction(() =>
          [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].every((link) => link.sheet !== null)
        )
        await page.screenshot({ path: join(SHOTS, `${name}-${width}-before.png`) })
        expect(await seriousViolations(page), `${name} before`).toEqual([])
        release()
        await hydrated(page)
        await page.waitForTimeout(500)
        await page.screenshot({ path: join(SHOTS, `${name}-${width}-after.png`) })
        expect(await seriousViolations(page), `${name} after`).toEqual([])
        await context.close()
      }
    })
  }
})
