import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HEADER_HEIGHT } from "../../../src/domain/Layout.ts"
import { admin, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"

const EMAIL = "layout@example.com"
const PASSWORD = "correct horse battery"
// with the two demo channels: more cards than the widest grid has columns, so every width wraps
const EXTRA_STREAMS = 5
const CARDS = 2 + EXTRA_STREAMS

/** SPEC §2: 5 columns, 4 below 1500px, 3 below 1200, 2 below 900, 1 below 600; both sides of each breakpoint. */
const COLUMNS_BY_WIDTH: ReadonlyArray<readonly [number, number]> = [
  [1600, 5],
  [1500, 5],
  [1499, 4],
  [1200, 4],
  [1199, 3],
  [900, 3],
  [899, 2],
  [600, 2],
  [599, 1]
]
const SMALL = 600
const MENU_LINKS = ["Home", "Stream Schedule", "Invites", "FAQ", "Contact Us", "Account settings", "Reminders"]

let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  for (let n = 1; n <= EXTRA_STREAMS; n++) {
    await admin(server, "stream:add", "--title", `Extra Channel ${n}`, "--src", "/live/demo1/index.m3u8", "--tags", "HD")
  }
  context = await browser.newContext({ viewport: { width: 1600, height: 900 } })
  page = await context.newPage()
  await page.goto(`${server.url}/login`)
  await page.getByLabel("Email").fill(EMAIL)
  await page.getByLabel("Password").fill(PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL(`${server.url}/`)
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.stop()
})

/** The grid's own items (each card holds a list of tags too). */
const cards = () => page.getByRole("list", { name: "Streams" }).locator(":scope > li")

/** Cards side by side in the first row: those level with the first card. */
const gridColumns = (): Promise<number> =>
  cards().evaluateAll((items) => {
    const tops = items.map((item) => Math.round(item.getBoundingClientRect().top))
    return tops.filter((top) => top === tops[0]).length
  })

/** The cards' distinct left edges, left to right. */
const columnLefts = (): Promise<number[]> =>
  cards().evaluateAll((items) => [...new Set(items.map((item) => Math.round(item.getBoundingClientRect().left)))].sort((a, b) => a - b))

const header = () => page.getByRole("banner")
const menuButton = () => header().getByRole("button", { name: "Menu" })

describe("responsive layout, in Chromium against the real server", () => {
  it("shows every stream as a card", async () => {
    await page.goto(`${server.url}/`)
    await cards()
      .nth(CARDS - 1)
      .waitFor()
    expect(await cards().count()).toBe(CARDS)
    await page.getByRole("button", { name: /Extra Channel 5/ }).waitFor()
  })

  for (const [width, columns] of COLUMNS_BY_WIDTH) {
    it(`at ${width}px: ${columns} grid column${columns === 1 ? "" : "s"}, a ${HEADER_HEIGHT}px header, the burger only below ${SMALL}px`, async () => {
      await page.setViewportSize({ width, height: 900 })
      await cards().first().waitFor()
      expect(await gridColumns()).toBe(columns)
      // every card sits in one of exactly that many columns
      expect(await columnLefts()).toHaveLength(columns)

      const box = await header().boundingBox()
      expect(box?.height).toBe(HEADER_HEIGHT)

      const small = width < SMALL
      expect(await menuButton().isVisible()).toBe(small)
      expect(await header().getByRole("navigation", { name: "Main" }).isVisible()).toBe(!small)
    })
  }

  it("opens the burger menu with every link below the small breakpoint", async () => {
    await page.setViewportSize({ width: SMALL - 1, height: 900 })
    await page.goto(`${server.url}/`)
    const button = menuButton()
    await button.waitFor()
    expect(await button.getAttribute("aria-expanded")).toBe("false")
    await button.click()
    expect(await button.getAttribute("aria-expanded")).toBe("true")
    const menu = page.locator("#mobile-menu")
    await menu.waitFor()
    for (const name of MENU_LINKS) expect(await menu.getByRole("link", { name, exact: true }).isVisible(), name).toBe(true)
    expect(await menu.getByRole("button", { name: "Log out" }).isVisible()).toBe(true)
    // the customer sees no staff links
    expect(await menu.getByRole("link", { name: "Admin Reports" }).count()).toBe(0)

    await menu.getByRole("link", { name: "Stream Schedule" }).click()
    await page.waitForURL(`${server.url}/stream-schedule`)
    await menu.waitFor({ state: "detached" })
    await button.click()
    await expect.poll(() => menu.getByRole("link", { name: "Stream Schedule" }).getAttribute("aria-current")).toBe("page")
    expect(await menu.getByRole("link", { name: "Home", exact: true }).getAttribute("aria-current")).toBeNull()
    await button.click()
    await menu.waitFor({ state: "detached" })
  })

  it("marks the link of the current path as active", async () => {
    await page.setViewportSize({ width: 1600, height: 900 })
    await page.goto(`${server.url}/`)
    const nav = header().getByRole("navigation", { name: "Main" })
    const link = (name: string) => nav.getByRole("link", { name, exact: true })
    await link("Home").waitFor()
    const background = (name: string) => link(name).evaluate((element) => getComputedStyle(element).backgroundColor)

    expect(await link("Home").getAttribute("aria-current")).toBe("page")
    expect(await link("Invites").getAttribute("aria-current")).toBeNull()
    const idle = await background("Invites")

    for (const [name, path] of [
      ["Invites", "/invites"],
      ["Stream Schedule", "/stream-schedule"],
      ["Home", "/"]
    ] as const) {
      await link(name).click()
      await page.waitForURL(`${server.url}${path}`)
      // off the link, so its hover style is not what is measured
      await page.mouse.move(5, 800)
      // the router moves the address first and renders the new page in a transition just after
      await expect.poll(() => link(name).getAttribute("aria-current"), { message: name }).toBe("page")
      expect(await background(name), name).not.toBe(idle)
      const others = ["Home", "Stream Schedule", "Invites"].filter((other) => other !== name)
      for (const other of others) expect(await link(other).getAttribute("aria-current"), `${other} on ${path}`).toBeNull()
    }

    // pages inside a menu mark the menu's button
    await page.goto(`${server.url}/support`)
    const support = nav.getByRole("button", { name: "Support" })
    await support.waitFor()
    expect(await support.getAttribute("data-active")).toBe("true")
    expect(await link("Home").getAttribute("aria-current")).toBeNull()
  })
})
