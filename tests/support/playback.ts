import type { Page } from "playwright-core"
import { WAIT_MS } from "./timeouts.ts"

/** Where the page's video is, in seconds. */
export const currentTime = (page: Page): Promise<number> => page.evaluate(() => document.querySelector("video")?.currentTime ?? 0)

/** The picture runs: it starts, then moves on by more than a second. */
export const expectPlaying = async (page: Page, timeout = WAIT_MS): Promise<void> => {
  await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.3, undefined, { timeout })
  const first = await currentTime(page)
  await page.waitForFunction((from) => (document.querySelector("video")?.currentTime ?? 0) > from + 1, first, { timeout })
}
