import type { Browser, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NowNext } from "../../../src/domain/Schedule.ts"
import { seriousViolations } from "../../support/axe.ts"
import { addStream, admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "guide.watcher@example.com"
const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const
const DEMO_CHANNELS = ["Demo Channel 1", "Demo Channel 2"] as const

let server: RunningServer
let browser: Browser
let noGuideId: number

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  noGuideId = await addStream(server, "--title", "No Guide Channel", "--src", "/live/demo1/index.m3u8", "--tags-sldp", "lls,?Extra")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const open = async (viewport: (typeof VIEWPORTS)[number]): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })
  const page = await context.newPage()
  await signIn(page, server, EMAIL, PASSWORD)
  return page
}

const answerTo = async <T>(page: Page, path: string): Promise<T> =>
  ((await (await page.waitForResponse((response) => new URL(response.url()).pathname === path)).json()) as { readonly data: T }).data

/** Opens the grid; answers what the server said airs, as the page received it, by stream title. */
const openGrid = async (page: Page) => {
  // away first: the answers to wait for are this visit's, not those of the page signing in left
  await page.goto("about:blank")
  const streams = answerTo<ReadonlyArray<{ readonly id: number; readonly title: string }>>(page, "/api/streams/all")
  const guide = answerTo<ReadonlyArray<NowNext>>(page, "/api/guide/now")
  await page.goto(`${server.url}/`)
  const [listed, airing] = await Promise.all([streams, guide])
  return {
    airing,
    on: (title: string): NowNext | undefined =>
      airing.find((entry) => entry.streamId === listed.find((stream) => stream.title === title)?.id)
  }
}

const card = (page: Page, name: string): Locator =>
  page.getByRole("listitem").filter({ has: page.getByRole("button", { name, exact: true }) })

describe("now and next on the streams grid, in Chromium against the real server and its demo guide", () => {
  for (const viewport of VIEWPORTS) {
    it(`shows the programme on now, its progress and the next one on each demo channel's card, nothing on one without a guide (${viewport.name})`, async () => {
      const page = await open(viewport)
      const guide = await openGrid(page)
      for (const name of DEMO_CHANNELS) {
        const slots = guide.on(name)
        expect(slots?.now).toBeTruthy()
        const item = card(page, name)
        await expect.poll(() => item.getByRole("progressbar").count()).toBe(1)
        const bar = item.getByRole("progressbar")
        expect(await bar.getAttribute("aria-label")).toMatch(/^Live, \d{1,3}% through$/)
        expect(await bar.isVisible()).toBe(true)
        expect(
          await item
            .getByText(slots?.now?.Title ?? "", { exact: true })
            .first()
            .isVisible()
        ).toBe(true)
        expect(await item.locator("time").textContent()).toMatch(/^\d{1,2}:\d{2} [AP]M$/)
        expect(await item.getByText("Next", { exact: true }).isVisible()).toBe(true)
      }
      const bare = card(page, "No Guide Channel")
      expect(guide.airing.some((entry) => entry.streamId === noGuideId && entry.now !== null)).toBe(false)
      expect(await bare.getByRole("progressbar").count()).toBe(0)
      expect(await bare.locator("time").count()).toBe(0)
      // nothing spills out of the cards, at either width
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await page.context().close()
    })

    it(`has no serious or critical accessibility violations with now/next showing (${viewport.name})`, async () => {
      const page = await open(viewport)
      await openGrid(page)
      await card(page, "Demo Channel 1").getByRole("progressbar").waitFor()
      expect(await seriousViolations(page)).toEqual([])
      await page.context().close()
    })
  }

  it("shows the grid at once while now/next is slow, and a card without a guide does not move when it arrives", async () => {
    const page = await open(VIEWPORTS[0])
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route("**/api/guide/now", async (route) => {
      await held
      await route.continue()
    })
    await page.goto(`${server.url}/`)
    const bare = card(page, "No Guide Channel")
    await bare.waitFor()
    const tags = bare.getByRole("list", { name: "Tags" })
    const before = { title: await bare.getByRole("button").boundingBox(), tags: await tags.boundingBox() }
    expect(await page.getByRole("progressbar").count()).toBe(0)
    release()
    await card(page, "Demo Channel 1").getByRole("progressbar").waitFor()
    expect({ title: await bare.getByRole("button").boundingBox(), tags: await tags.boundingBox() }).toEqual(before)
    await page.context().close()
  })

  it("loads again by the time a shown programme ends, and counts the next one as on now from its start", async () => {
    const page = await open(VIEWPORTS[0])
    // the page's clock runs ahead; the server's keeps real time and answers what airs now
    await page.clock.install()
    const guide = await openGrid(page)
    const slots = guide.on("Demo Channel 1")
    if (slots?.now == null || slots.next == null) throw new Error("the demo guide should have a programme on now and one after it")
    await card(page, "Demo Channel 1").getByRole("progressbar").waitFor()
    const earliest = Math.min(...guide.airing.flatMap((entry) => (entry.now === null ? [] : [Date.parse(entry.now.EndTime)])))
    const untilPageTime = async (at: number) => Math.max(0, at - (await page.evaluate(() => Date.now()))) + 1000
    const reload = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/guide/now")
    await page.clock.runFor(await untilPageTime(earliest))
    await reload
    await page.clock.runFor(await untilPageTime(Date.parse(slots.now.EndTime)))
    const item = card(page, "Demo Channel 1")
    // titles come back (a news slot every few hours), so the Now line is what tells them apart
    const onNow = item.locator("p").filter({ has: page.getByText("Now", { exact: true }) })
    await expect.poll(() => onNow.textContent()).toBe(`Now ${slots.next.Title}`)
    await page.context().close()
  })
})
