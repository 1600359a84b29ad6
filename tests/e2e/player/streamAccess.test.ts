import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const PASSWORD = "correct horse battery"
const VIEWER = "sharer@example.com"
const STAFF = "desk@example.com"

let server: RunningServer
let browser: Browser
const contexts: Array<BrowserContext> = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", VIEWER, "--password", PASSWORD)
  await admin(server, "user:create", "--email", STAFF, "--password", PASSWORD, "--staff")
  await admin(server, "settings:set", "--key", "maxStreamsPerAccount", "--value", "1")
})

afterAll(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await server?.stop()
})

/** A browser of its own (its own session), signed in as `email`. */
const device = async (email: string, width = 1440): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" })
  contexts.push(context)
  const page = await context.newPage()
  await signIn(page, server, email, PASSWORD)
  return page
}

const expectPlaying = async (page: Page) => {
  const playing = await page
    .waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 0.3)
    .then(
      () => true,
      () => false
    )
  // a player that never starts says why on the page: show that rather than a bare timeout
  if (!playing) expect(await page.getByRole("alert").allTextContents(), "the player did not start").toEqual([])
  expect(playing, "the player did not start").toBe(true)
}

/** The viewer's live connections as staff see them, through the API. */
const viewerConnections = async (): Promise<number> => {
  const login = await fetch(`${server.url}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: STAFF, password: PASSWORD, isMobile: false })
  })
  const { token } = (await login.json()) as { token: string }
  const info = (await (await fetch(`${server.url}/api/adminreports/users`, { headers: { token } })).json()) as {
    readonly connections: Record<string, ReadonlyArray<unknown>>
  }
  return info.connections[VIEWER]?.length ?? 0
}

const usersView = async (page: Page) => {
  await page.goto(`${server.url}/adminreports`)
  await page.getByRole("button", { name: "Show users" }).click()
  await page.getByRole("table", { name: "Sessions Streaming" }).waitFor()
}

describe("signed streams, the account's limit and staff ending a session, in Chromium against the real server", () => {
  it("shows an address that fetches a playlist without a grant to staff as an unknown IP", async () => {
    const anonymous = await fetch(`${server.url}/live/demo1/index.m3u8`)
    expect(anonymous.status).toBe(403)
    expect(await anonymous.json()).toMatchObject({ success: false, status: 403, reason: "invalid" })
    const staff = await device(STAFF)
    await usersView(staff)
    const unknown = staff.getByRole("table", { name: "UNKNOWN IP WATCHING STREAM" })
    await unknown.waitFor()
    expect(await unknown.getByRole("cell").allTextContents()).toEqual(["127.0.0.1"])
    expect(await seriousViolations(staff)).toEqual([])
    await staff.context().close()
  })

  it("over the limit, a second device is told where the account plays, may end the oldest, and the first is told why it stopped", async () => {
    const home = await device(VIEWER)
    await home.goto(`${server.url}/player?default=0`)
    await expectPlaying(home)

    const away = await device(VIEWER, 390)
    await away.goto(`${server.url}/player?default=1`)
    const limit = away.getByRole("alert").filter({ hasText: "Already watching elsewhere" })
    await limit.waitFor()
    expect(await limit.textContent()).toContain("This account can watch 1 stream at once, and it is playing somewhere else right now:")
    expect(await limit.getByRole("listitem").textContent()).toMatch(
      /^Demo Channel 1 on Chrome on Linux, network 127\.0\.0\.\*, since \d\d:\d\d/
    )
    expect(await seriousViolations(away)).toEqual([])

    await limit.getByRole("button", { name: "End the oldest and watch here" }).click()
    await expectPlaying(away)
    const stopped = home.getByRole("alert").filter({ hasText: "Playing on another device now" })
    await stopped.waitFor()
    expect(await stopped.textContent()).toContain("the account started watching somewhere else")
    await home.context().close()
    // leaving the page stops its stream at once (the page's beacon), so the account is free again
    await away.goto("about:blank")
    await expect.poll(viewerConnections).toBe(0)
    await away.context().close()
  })

  it("forgets a closed tab of the low-latency player on a stream with no low-latency source at once", async () => {
    await admin(server, "stream:add", "--title", "TV Only", "--src", "/live/demo2/index.m3u8")
    const home = await device(VIEWER)
    await home.goto(`${server.url}/playersldp?default=2`)
    await home.getByRole("heading", { level: 1, name: "TV Only" }).waitFor()
    await expectPlaying(home)
    // its playlists and its heartbeats are one connection
    await expect.poll(viewerConnections).toBe(1)
    await home.waitForTimeout(1000)
    expect(await viewerConnections()).toBe(1)
    await home.close()
    await expect.poll(viewerConnections, { timeout: 5000 }).toBe(0)

    // so the account's one stream is free: another device plays without being told it watches elsewhere
    const away = await device(VIEWER, 390)
    await away.goto(`${server.url}/player?default=0`)
    await expectPlaying(away)
    expect(await away.getByRole("alert").filter({ hasText: "Already watching elsewhere" }).count()).toBe(0)
    await away.context().close()
    await home.context().close()
  })

  it("lets staff end a viewer's session from the users view; the viewer is told staff ended it", async () => {
    const viewer = await device(VIEWER)
    await viewer.goto(`${server.url}/playersldp?default=0`)
    await expectPlaying(viewer)

    const staff = await device(STAFF)
    await usersView(staff)
    const row = staff.getByRole("row").filter({ hasText: VIEWER }).filter({ hasText: "Demo Channel 1" })
    // the view keeps itself current: the viewer shows up without Refresh Users
    await row.waitFor()
    const health = staff.getByRole("table", { name: "Stream health, last hour" }).getByRole("row").filter({ hasText: "Demo Channel 1" })
    await expect.poll(() => health.getByRole("cell").nth(1).textContent()).toBe("1")
    expect(await seriousViolations(staff)).toEqual([])
    // on a phone the users view's tables are cards: no page, and no table's own region, scrolls sideways
    await staff.setViewportSize({ width: 390, height: 844 })
    const sideways = () =>
      staff.evaluate(() =>
        [document.documentElement, ...document.querySelectorAll("[role=region]:has(table)")]
          .filter((box) => box.scrollWidth > box.clientWidth + 1)
          .map((box) => document.getElementById(box.getAttribute("aria-labelledby") ?? "")?.textContent ?? "the page")
      )
    await expect.poll(sideways).toEqual([])
    expect(await seriousViolations(staff)).toEqual([])
    await staff.setViewportSize({ width: 1440, height: 900 })
    await row.getByRole("button", { name: `End ${VIEWER}'s connection to Demo Channel 1` }).click()
    // nothing ends before staff confirm
    await staff.getByRole("button", { name: "End connection" }).click()
    await staff.getByRole("list", { name: "Notifications" }).getByText("Connection ended.", { exact: true }).waitFor()

    const told = viewer.getByRole("alert").filter({ hasText: "Staff ended this session" })
    await told.waitFor()
    expect(await seriousViolations(viewer)).toEqual([])
    await told.getByRole("button", { name: "Play here again" }).click()
    await expectPlaying(viewer)
  })
})
