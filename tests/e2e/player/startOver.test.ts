import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NowNext } from "../../../src/domain/Schedule.ts"
import { START_OVER_AFTER_MS } from "../../../src/domain/Timeshift.ts"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"
import { expectPlaying } from "../../support/playback.ts"

const EMAIL = "late.arrival@example.com"
const PASSWORD = "correct horse battery"
/** The demo channels' segments: "± one segment" of a moment. */
const SEGMENT_MS = 2000
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const

let server: RunningServer
let browser: Browser
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>
/** A demo channel whose programme on now began more than START_OVER_AFTER_MS ago, and what that programme is. */
let late: { readonly streamId: number; readonly index: number; readonly title: string; readonly start: number }
/** The other demo channel. */
let other: { readonly streamId: number; readonly index: number; readonly title: string }

const api = async <T>(page: Page, path: string): Promise<T> => {
  const token = await page.evaluate(() => localStorage.getItem("Token") ?? "")
  return ((await (await page.request.get(`${server.url}${path}`, { headers: { Token: token } })).json()) as { readonly data: T }).data
}

/**
 * The demo guide follows the real clock. A channel whose programme began over three minutes ago
 * (and runs a while yet) is what the prompt needs; when neither has one (both just began), the
 * test waits until one does.
 */
const findLateChannel = async (page: Page) => {
  const streams = await api<ReadonlyArray<{ readonly id: number; readonly title: string }>>(page, "/api/streams/all")
  for (;;) {
    const guide = await api<ReadonlyArray<NowNext>>(page, "/api/guide/now")
    const now = Date.now()
    const candidates = streams.flatMap((stream, index) => {
      const on = guide.find((entry) => entry.streamId === stream.id)?.now
      if (on == null) return []
      const start = Date.parse(on.StartTime)
      return now - start > START_OVER_AFTER_MS + 20_000 && Date.parse(on.EndTime) - now > 150_000
        ? [{ streamId: stream.id, index, title: on.Title, start }]
        : []
    })
    const found = candidates[0]
    if (found !== undefined) {
      const rest = streams.findIndex((stream) => stream.id !== found.streamId)
      return { late: found, other: { streamId: streams[rest]?.id ?? 0, index: rest, title: streams[rest]?.title ?? "" } }
    }
    await new Promise((resolve) => setTimeout(resolve, 5000))
  }
}

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  const context = await browser.newContext()
  const page = await context.newPage()
  await signIn(page, server, EMAIL, PASSWORD)
  signedIn = await context.storageState()
  ;({ late, other } = await findLateChannel(page))
  await context.close()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const newPage = async (viewport: (typeof VIEWPORTS)[number] = VIEWPORTS[0]): Promise<Page> => {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    storageState: signedIn,
    reducedMotion: "reduce"
  })
  return context.newPage()
}

/** The player's frame. */
const frame = (page: Page) => page.getByRole("region", { name: "Video player" })
/** The wall clock of the picture on screen: its program date time, as the player reads it from the playlist. */
const moment = async (page: Page): Promise<number> => {
  // a warm start plays before the app's player (and its reading of the dates) is there
  await page.waitForFunction(() => document.querySelector("[data-moment-ms]") !== null)
  return Number(await frame(page).getAttribute("data-moment-ms"))
}
/** Waits until the picture is within one segment of `at` (it plays on meanwhile: up to `playing` ms past it). */
const expectMomentNear = async (page: Page, at: number, playing = 3000) => {
  const offset = async () => {
    const ms = (await moment(page)) - at
    return ms >= -SEGMENT_MS && ms <= SEGMENT_MS + playing ? "near" : `${Math.round(ms / 1000)} s from ${new Date(at).toISOString()}`
  }
  await expect.poll(offset).toBe("near")
}
const prompt = (page: Page) => page.getByRole("dialog", { name: /^Start from the beginning \(kick-off \d\d:\d\d\) or watch live\?$/ })
const showControls = async (page: Page) => {
  await page.getByRole("region", { name: "Video player" }).hover()
  await page.getByRole("region", { name: "Video player" }).focus()
}
/** `text` as a regular expression matching it literally. */
const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const clock = (epochMs: number) =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(epochMs)

describe("arriving late, in Chromium against the real server and its demo channels", () => {
  it("asks once whether to start the programme from the beginning, plays it from its start, and goes live again", async () => {
    const page = await newPage()
    await page.goto(`${server.url}/player?default=${late.index}`)
    const dialog = prompt(page)
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain(`${late.title} began at ${clock(late.start)}`)
    await dialog.getByRole("button", { name: `From the beginning (${clock(late.start)})` }).click()
    await expectMomentNear(page, late.start)
    await expectPlaying(page)

    // the seek bar reads in wall-clock time, the programme on screen named
    await showControls(page)
    const seek = page.getByRole("slider", { name: "Seek" })
    expect(await seek.getAttribute("aria-valuetext")).toMatch(
      new RegExp(`^\\d{2}:\\d{2} · (\\d+ h )?\\d+ min behind live, ${literal(late.title)}$`)
    )
    expect(await page.getByRole("group", { name: "Player controls" }).textContent()).toMatch(/\d{2}:\d{2} · (\d+ h )?\d+ min behind live/)

    // live again, and not asked again for this programme
    await page.getByRole("button", { name: "Go to live" }).click()
    await expect.poll(async () => Date.now() - (await moment(page))).toBeLessThan(20_000)
    await page.reload()
    await expectPlaying(page)
    expect(await prompt(page).count()).toBe(0)
    await page.context().close()
  })

  it("seeks along the programme marks: a click, Page Up and Page Down, and the Start of programme button", async () => {
    const page = await newPage()
    await page.goto(`${server.url}/player?default=${late.index}`)
    await prompt(page).getByRole("button", { name: "Watch live" }).click()
    await expectPlaying(page)
    await showControls(page)
    // the programme on now, marked along the window: a click plays it from its start
    const mark = page.getByRole("button", { name: `Play ${late.title}, from ${clock(late.start)}` }).last()
    await mark.click()
    await expectMomentNear(page, late.start)

    // the keyboard: Page Up goes back to the programme before (when the window holds its start),
    // Page Down on to this one again
    const window = await api<{ readonly from: string; readonly programmes: ReadonlyArray<{ readonly StartTime: string }> }>(
      page,
      `/api/guide/window/${late.streamId}`
    )
    const before = window.programmes.map((programme) => Date.parse(programme.StartTime)).filter((start) => start < late.start)
    const previous = before.at(-1)
    const seek = page.getByRole("slider", { name: "Seek" })
    await seek.focus()
    if (previous !== undefined && previous >= Date.parse(window.from) + 60_000) {
      await page.keyboard.press("PageUp")
      await expectMomentNear(page, previous)
      await page.keyboard.press("PageDown")
      await expectMomentNear(page, late.start)
    }

    // ten seconds in (→ on the player seeks 5 s), the button goes back to the start of the programme on screen
    await showControls(page)
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    await expect.poll(() => moment(page)).toBeGreaterThan(late.start + 8000)
    // the keyboard on one of its controls keeps the bar up
    await page.getByRole("button", { name: "Start of programme" }).focus()
    await page.keyboard.press("Enter")
    await expectMomentNear(page, late.start)
    await expectPlaying(page)
    await page.context().close()
  })

  it("catches up gently when asked, and the low-latency player hands over to the TV player for the beginning", async () => {
    const page = await newPage()
    await page.goto(`${server.url}/playersldp?default=${late.index}&ui=8`)
    await prompt(page)
      .getByRole("button", { name: /^From the beginning/ })
      .click()
    await page.waitForURL((url) => url.pathname === "/player" && url.searchParams.get("stream") === String(late.streamId))
    const url = new URL(page.url())
    expect(Date.parse(url.searchParams.get("from") ?? "")).toBe(late.start)
    expect(url.searchParams.get("ui")).toBe("8")
    expect(url.searchParams.get("default")).toBe(String(late.index))
    await expectMomentNear(page, late.start, 10_000)
    await expectPlaying(page)
    // a page opened at a moment of its own is not asked
    expect(await prompt(page).count()).toBe(0)

    await showControls(page)
    const catchUp = page.getByRole("button", { name: "Catch up" })
    await catchUp.click()
    expect(await catchUp.getAttribute("aria-pressed")).toBe("true")
    expect(await page.evaluate(() => document.querySelector("video")?.playbackRate)).toBe(1.1)
    await catchUp.click()
    expect(await page.evaluate(() => document.querySelector("video")?.playbackRate)).toBe(1)
    // the link to the low-latency player leaves the moment out: that player has no window
    expect(await page.getByRole("link", { name: "Switch to low-latency player" }).getAttribute("href")).not.toContain("from=")
    await page.context().close()
  })

  it("starts /player?stream=ID&from=ISO at that moment, live with a notice when the window no longer holds it, and live when it is to come", async () => {
    const page = await newPage()
    const from = Date.now() - 30 * 60_000
    await page.goto(`${server.url}/player?stream=${other.streamId}&from=${new Date(from).toISOString()}`)
    await page.getByRole("heading", { level: 1, name: other.title }).waitFor()
    await page.waitForURL((url) => url.searchParams.get("default") === String(other.index))
    await expectMomentNear(page, from, 10_000)
    await expectPlaying(page)
    expect(await prompt(page).count()).toBe(0)

    const outside = await newPage()
    await outside.goto(`${server.url}/player?stream=${other.streamId}&from=${new Date(Date.now() - 30 * 3_600_000).toISOString()}`)
    await outside.getByRole("status").filter({ hasText: "outside the channel's time-shift window" }).waitFor()
    await expectPlaying(outside)
    expect(Date.now() - (await moment(outside))).toBeLessThan(30_000)

    // the low-latency player has no window: the TV player takes such a link over
    await page.goto(`${server.url}/playersldp?stream=${other.streamId}&from=${new Date(from).toISOString()}`)
    await page.waitForURL((url) => url.pathname === "/player" && url.searchParams.get("from") !== null)
    await expectMomentNear(page, from, 15_000)

    // a moment still to come (a reminder's link opened early) is simply live
    const early = await newPage()
    await early.goto(`${server.url}/player?stream=${other.streamId}&from=${new Date(Date.now() + 10 * 60_000).toISOString()}`)
    await expectPlaying(early)
    expect(Date.now() - (await moment(early))).toBeLessThan(30_000)
    expect(await early.getByRole("status").filter({ hasText: "outside the channel's time-shift window" }).count()).toBe(0)
    await page.context().close()
    await outside.context().close()
    await early.context().close()
  })

  it("is answered with the keyboard alone: the question takes focus, Tab reaches the other answer, Enter and Escape answer", async () => {
    const page = await newPage()
    await page.goto(`${server.url}/player?default=${late.index}`)
    await prompt(page).waitFor()
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName)
    await expect.poll(focused).toBe("Watch live")
    await page.keyboard.press("Tab")
    expect(await focused()).toMatch(/^From the beginning/)
    await page.keyboard.press("Escape")
    await prompt(page).waitFor({ state: "detached" })
    await expectPlaying(page)
    expect(Date.now() - (await moment(page))).toBeLessThan(30_000)
    // the keyboard carries on in the player: Space pauses
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Video player")
    await page.keyboard.press(" ")
    await page.waitForFunction(() => document.querySelector("video")?.paused === true)

    // another visit (a browser that was never asked), from the beginning with Tab and Enter
    const second = await newPage()
    await second.goto(`${server.url}/player?default=${late.index}`)
    await prompt(second).waitFor()
    await expect.poll(() => second.evaluate(() => document.activeElement?.textContent)).toBe("Watch live")
    await second.keyboard.press("Tab")
    await second.keyboard.press("Enter")
    await expectMomentNear(second, late.start)
    expect(await second.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Video player")
    await page.context().close()
    await second.context().close()
  })

  for (const viewport of VIEWPORTS) {
    it(`has no serious or critical accessibility violations with the prompt open and with the programme marks (${viewport.name})`, async () => {
      const page = await newPage(viewport)
      await page.goto(`${server.url}/player?default=${late.index}`)
      await prompt(page).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      await prompt(page)
        .getByRole("button", { name: /^From the beginning/ })
        .click()
      await expectPlaying(page)
      await showControls(page)
      await page
        .getByRole("button", { name: new RegExp(`^Play ${literal(late.title)}`) })
        .last()
        .waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await page.context().close()
    })
  }
})
