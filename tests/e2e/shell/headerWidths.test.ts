import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admin, launchBrowser, type RunningServer, signIn, startServer } from "../../support/e2eHarness.ts"

const PASSWORD = "correct horse battery"
const WIDTHS = [320, 375, 414, 599, 600, 640, 700, 768, 800, 900, 1024, 1080, 1200, 1440]
const CUSTOMER_DESTINATIONS = ["Home", "Stream Schedule", "Invites", "FAQ", "Contact Us", "Account settings", "Reminders", "Log out"]
const STAFF_DESTINATIONS = [...CUSTOMER_DESTINATIONS, "Admin Reports", "Support Tickets", "Audit Log"]
const PATHS: Record<string, string> = {
  Home: "/",
  "Stream Schedule": "/stream-schedule",
  Invites: "/invites",
  FAQ: "/support",
  "Contact Us": "/contactus",
  "Account settings": "/profile",
  Reminders: "/reminders",
  "Admin Reports": "/adminreports",
  "Support Tickets": "/adminsupport",
  "Audit Log": "/adminaudit"
}

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", "wide.viewer@example.com", "--password", PASSWORD)
  await admin(server, "user:create", "--email", "wide.staff@example.com", "--password", PASSWORD, "--staff")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const sideways = (page: Page) => page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))

interface Stop {
  readonly name: string
  readonly inViewport: boolean
  readonly fitsWidth: boolean
}

/** The focused element's name, and whether all of it is on screen. */
const focused = (page: Page): Promise<Stop & { readonly inHeader: boolean; readonly menuButton: boolean; readonly expanded: boolean }> =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    const box = element?.getBoundingClientRect()
    const name = element?.getAttribute("aria-label") ?? element?.textContent?.trim() ?? ""
    return {
      name,
      inHeader: element?.closest("header") !== null && element?.closest("header") !== undefined,
      menuButton: element?.tagName === "BUTTON" && element.hasAttribute("aria-expanded"),
      expanded: element?.getAttribute("aria-expanded") === "true",
      inViewport: box !== undefined && box.width > 0 && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight,
      fitsWidth: box !== undefined && box.left >= 0 && box.right <= window.innerWidth
    }
  })

/**
 * Tabs through the header as a keyboard user would, opening every closed menu on the way
 * (Enter), and answers each stop. No page may scroll sideways at any point.
 */
/** The focused menu button says it is open: its items are there to Tab into. */
const menuOpened = (page: Page) => page.waitForFunction(() => document.activeElement?.getAttribute("aria-expanded") === "true")

/** The home page after its first render: the streams have loaded, so every actor it starts has started. */
const homeReady = async (page: Page) => {
  await page.locator("header").waitFor()
  await page.getByRole("list", { name: "Streams" }).waitFor()
}

const walkHeader = async (page: Page): Promise<Array<Stop>> => {
  const stops: Array<Stop> = []
  let entered = false
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press("Tab")
    const stop = await focused(page)
    if (!stop.inHeader) {
      if (entered) break
      continue
    }
    entered = true
    stops.push(stop)
    if (stop.menuButton && !stop.expanded) {
      await page.keyboard.press("Enter")
      await menuOpened(page)
      const { scrollWidth, innerWidth } = await sideways(page)
      expect(scrollWidth, `${stop.name} opened`).toBeLessThanOrEqual(innerWidth)
    }
  }
  return stops
}

const sweep = (user: "customer" | "staff", email: string, destinations: ReadonlyArray<string>) =>
  describe(`the header for a ${user}, from 320 px to 1440 px`, () => {
    let context: BrowserContext
    let page: Page
    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: "reduce" })
      page = await context.newPage()
      await signIn(page, server, email, PASSWORD)
    })
    afterAll(async () => context?.close())

    it.each(
      WIDTHS.map(
        (width, index) => [width, destinations.filter((name) => name !== "Log out")[index % (destinations.length - 1)] ?? "Home"] as const
      )
    )("at %i px: no sideways scrolling, every destination reachable by keyboard; Enter on %s opens it", async (width, follow) => {
      await page.setViewportSize({ width, height: 800 })
      await page.goto(`${server.url}/`)
      await homeReady(page)
      const { scrollWidth, innerWidth } = await sideways(page)
      expect(scrollWidth, "document width").toBeLessThanOrEqual(innerWidth)

      const stops = await walkHeader(page)
      const names = stops.map((stop) => stop.name)
      for (const name of destinations) expect(names, `${name} is a Tab stop`).toContain(name)
      const offScreen = stops.filter((stop) => !stop.inViewport || !stop.fitsWidth).map((stop) => stop.name)
      expect(offScreen, "focused but not fully on screen").toEqual([])

      // and a destination works from the keyboard: walk to it again, press Enter
      await page.goto(`${server.url}/`)
      await homeReady(page)
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press("Tab")
        const stop = await focused(page)
        if (stop.name === follow) break
        if (stop.inHeader && stop.menuButton && !stop.expanded) {
          await page.keyboard.press("Enter")
          await menuOpened(page)
        }
      }
      expect((await focused(page)).name).toBe(follow)
      await page.keyboard.press("Enter")
      await page.waitForURL(`${server.url}${PATHS[follow]}`)
    })

    it("logs out from the keyboard at 700 px", async () => {
      await page.setViewportSize({ width: 700, height: 800 })
      await page.goto(`${server.url}/`)
      await homeReady(page)
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press("Tab")
        const stop = await focused(page)
        if (stop.name === "Log out") break
        if (stop.inHeader && stop.menuButton && !stop.expanded) {
          await page.keyboard.press("Enter")
          await menuOpened(page)
        }
      }
      expect((await focused(page)).name).toBe("Log out")
      await page.keyboard.press("Enter")
      await page.waitForURL(`${server.url}/login`)
    })
  })

sweep("customer", "wide.viewer@example.com", CUSTOMER_DESTINATIONS)
sweep("staff", "wide.staff@example.com", STAFF_DESTINATIONS)
