import type { Page } from "playwright-core"
import { WAIT_MS } from "./timeouts.ts"

/** Where the page's video is, in seconds. */
export const currentTime = (page: Page): Promise<number> => page.evaluate(() => document.querySelector("video")?.currentTime ?? 0)

/** The picture runs: it starts, then moves on by more than a second. */
export const expectPlaying = async (page: Page, timeout = WAIT_MS): Promise<void> => {
  try {
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.3, undefined, { timeout })
    const first = await currentTime(page)
    await page.waitForFunction((from) => (document.querySelector("video")?.currentTime ?? 0) > from + 1, first, { timeout })
  } catch (error) {
    throw new Error(`The picture did not play within ${timeout} ms. ${await whatThePlayerShows(page)}`, { cause: error })
  }
}

/** The video element's state and what the page tells the viewer, for a failure's message. */
const whatThePlayerShows = (page: Page): Promise<string> =>
  page
    .evaluate(() => {
      const video = document.querySelector("video")
      const buffered =
        video === null ? [] : Array.from({ length: video.buffered.length }, (_, n) => `${video.buffered.start(n)}-${video.buffered.end(n)}`)
      const said = Array.from(document.querySelectorAll('[role="status"], [role="alert"], [role="alertdialog"], [role="dialog"]'))
        .filter((element) => element.checkVisibility())
        .map((element) => (element.textContent ?? "").trim())
        .filter((text) => text !== "")
      return [
        `URL ${location.pathname}${location.search}`,
        video === null
          ? "no video element"
          : `video at ${video.currentTime} s, readyState ${video.readyState}, networkState ${video.networkState}, ` +
            `${video.paused ? "paused" : "not paused"}, buffered [${buffered.join(", ")}], error ${video.error?.message ?? "none"}`,
        `the page says: ${said.length === 0 ? "nothing" : said.map((text) => JSON.stringify(text)).join("; ")}`
      ].join("; ")
    })
    .catch((error: unknown) => `The page could not be read: ${String(error)}`)
