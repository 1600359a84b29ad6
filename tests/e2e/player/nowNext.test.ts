import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NowNext } from "../../../src/domain/Schedule.ts"
import { seriousViolations } from "../../support/axe.ts"
import { addStream, admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "guide.player@example.com"
const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const

let server: RunningServer
let browser: Browser
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  await addStream(server, "--title", "No Guide Channel", "--src", "/live/demo1/index.m3u8")
  const context = await browser.newContext()
  await signIn(await context.newPage(), server, EMAIL, PASSWORD)
  signedIn = await context.storageState()
  await context.close()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const newPage = async (viewport: (typeof VIEWPORTS)[number]): Promise<Page> => {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    storageState: signedIn,
    reducedMotion: "reduce"
  })
  return context.newPage()
}

/**
 * How long the checks below may look at a page, the page's own start included, on a machine
 * busy with the whole suite: a programme ending sooner is waited out.
 */
const LOOK_MS = 60_000

/** Opens the TV player on the first demo channel; answers what the server said airs, by stream title. */
const openPlayer = async (page: Page) => {
  const answerTo = async <T>(path: string): Promise<T> =>
    ((await (await page.waitForResponse((response) => new URL(response.url()).pathname === path)).json()) as { readonly data: T }).data
  const streams = answerTo<ReadonlyArray<{ readonly id: number; readonly title: string }>>("/api/streams/all")
  const guide = answerTo<ReadonlyArray<NowNext>>("/api/guide/now")
  await page.goto(`${server.url}/player?default=0`)
  const [listed, airing] = await Promise.all([streams, guide])
  return (title: string): NowNext | undefined =>
    airing.find((entry) => entry.streamId === listed.find((stream) => stream.title === title)?.id)
}

const titleArea = (page: Page, name: string): Locator => page.getByRole("region", { name, exact: true })
const listItem = (page: Page, name: string): Locator =>
  page
    .getByRole("complementary", { name: "Streams" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("button", { name: new RegExp(`^${name}`) }) })

/** The picture runs: currentTime moves on. */
const expectPlaying = async (page: Page) => {
  await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.3)
}

describe("now and next on the player page, in Chromium against the real server and its demo guide", () => {
  for (const viewport of VIEWPORTS) {
    it(`shows what airs under the player and in the side list while the stream plays (${viewport.name})`, async () => {
      let page = await newPage(viewport)
      let on = await openPlayer(page)
      // the page moves on to the next programme the moment one ends: one ending while the page is
      // looked at would differ from the answer read here, so the page is opened again after it
      const ends = ["Demo Channel 1", "Demo Channel 2"].map((name) => Date.parse(on(name)?.now?.EndTime ?? "") - Date.now())
      const soonest = Math.min(...ends.filter((ms) => Number.isFinite(ms)))
      if (soonest < LOOK_MS) {
        await page.context().close()
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, soonest) + 1000))
        page = await newPage(viewport)
        on = await openPlayer(page)
      }
      const current = on("Demo Channel 1")
      if (current?.now == null) throw new Error("the demo guide should have a programme on now")
      const stage = titleArea(page, "Demo Channel 1")
      await stage.getByRole("progressbar").waitFor()
      expect(await stage.getByRole("progressbar").getAttribute("aria-label")).toMatch(/^Live, \d{1,3}% through$/)
      expect(await stage.getByText(current.now.Title, { exact: true }).first().isVisible()).toBe(true)
      if (current.next !== null) expect(await stage.locator("time").textContent()).toMatch(/^\d{1,2}:\d{2} [AP]M$/)

      for (const name of ["Demo Channel 1", "Demo Channel 2"]) {
        const item = listItem(page, name)
        expect(await item.getByRole("progressbar").isVisible()).toBe(true)
        expect(
          await item
            .getByText(on(name)?.now?.Title ?? "", { exact: true })
            .first()
            .isVisible()
        ).toBe(true)
      }
      expect(await listItem(page, "No Guide Channel").getByRole("progressbar").count()).toBe(0)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await expectPlaying(page)
      await page.context().close()
    })

    it(`has no serious or critical accessibility violations with now/next showing (${viewport.name})`, async () => {
      const page = await newPage(viewport)
      await openPlayer(page)
      await titleArea(page, "Demo Channel 1").getByRole("progressbar").waitFor()
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    })
  }

  it("plays without waiting for now/next, and shows it once it comes", async () => {
    const page = await newPage(VIEWPORTS[0])
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route("**/api/guide/now", async (route) => {
      await held
      await route.continue()
    })
    await page.goto(`${server.url}/player?default=1`)
    await expectPlaying(page)
    expect(await page.getByRole("progressbar").count()).toBe(0)
    release()
    await titleArea(page, "Demo Channel 2").getByRole("progressbar").waitFor()
    await page.context().close()
  })

  it("plays as usual when now/next fails, showing nothing of it", async () => {
    const page = await newPage(VIEWPORTS[0])
    await page.route("**/api/guide/now", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, status: 500, detail: "Guide unavailable" })
      })
    )
    await page.goto(`${server.url}/player?default=0`)
    await expectPlaying(page)
    expect(await page.getByRole("progressbar").count()).toBe(0)
    expect(await page.getByRole("alert").count()).toBe(0)
    await page.context().close()
  })
})
