import { AxeBuilder } from "@axe-core/playwright"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import {
  addStream,
  addStreamWithoutSource,
  admin,
  launchBrowser,
  type RunningServer,
  signIn,
  startServer
} from "../../support/e2eHarness.ts"

const CUSTOMER = "axe.viewer@example.com"
const STAFF = "axe.staff@example.com"
const PASSWORD = "correct horse battery"
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 }
] as const

let server: RunningServer
let browser: Browser
let inviteLink: string

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "user:create", "--email", CUSTOMER, "--password", PASSWORD)
  await admin(server, "user:create", "--email", STAFF, "--password", PASSWORD, "--staff")
  inviteLink = (await admin(server, "invite:link", "--email", CUSTOMER)).trim().split("\n")[0] ?? ""
  const closed = await addStream(server, "--title", "Closed Channel", "--src", "/live/demo1/index.m3u8")
  await admin(server, "stream:maintenance", "--id", String(closed), "--on")
  await addStreamWithoutSource(server, "Premium Channel")
  await admin(server, "announce", "--title", "New channels", "--text", "Two more sports channels arrive next week.")
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { name, level: 1 }).waitFor()
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name }).waitFor()

const newContext = (viewport: (typeof VIEWPORTS)[number]) =>
  browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, reducedMotion: "reduce" })

interface Screen {
  readonly name: string
  /** A function when the path is known only once the server is set up. */
  readonly path: string | (() => string)
  /** Waits for what the screen shows once loaded (and opens what it is about). */
  readonly ready: (page: Page) => Promise<void>
}

const publicScreens: ReadonlyArray<Screen> = [
  { name: "sign in", path: "/login", ready: (page) => heading(page, "Sign in") },
  {
    name: "register with a real invite",
    path: () => new URL(inviteLink).pathname + new URL(inviteLink).search,
    ready: (page) => heading(page, "Create your account")
  },
  { name: "register with a bad invite", path: "/register?invite=bad", ready: (page) => heading(page, "Oops!") },
  { name: "forgot password", path: "/forgot-password", ready: (page) => heading(page, "Forgot password") },
  { name: "password reset", path: "/password-reset-confirmation?token=x", ready: (page) => heading(page, "Password not reset") },
  { name: "verify", path: "/verify?token=x", ready: (page) => heading(page, "Invalid Token") },
  { name: "sign in with a link", path: "/sign-in-link?token=x", ready: (page) => heading(page, "Sign-in link not valid") },
  { name: "confirm email change", path: "/confirm-email-change?token=x", ready: (page) => heading(page, "Email not changed") }
]

const chooseStream = (name: string) => async (page: Page) => {
  await page.getByRole("button", { name }).click()
}

const customerScreens: ReadonlyArray<Screen> = [
  { name: "streams", path: "/", ready: (page) => page.getByRole("button", { name: "Demo Channel 1" }).waitFor() },
  { name: "stream schedule", path: "/stream-schedule", ready: (page) => heading(page, "Stream Schedule") },
  { name: "invites", path: "/invites", ready: (page) => heading(page, "Invites") },
  { name: "FAQ", path: "/support", ready: (page) => heading(page, "FAQ") },
  { name: "contact us", path: "/contactus", ready: (page) => heading(page, "Contact Us") },
  { name: "account settings", path: "/profile", ready: (page) => heading(page, "Account settings") },
  { name: "reminders", path: "/reminders", ready: (page) => heading(page, "Reminders") },
  { name: "subscription", path: "/subscription", ready: (page) => heading(page, "Subscription") },
  { name: "transactions", path: "/transactions", ready: (page) => heading(page, "Transactions") },
  { name: "TV player", path: "/player?default=0", ready: (page) => heading(page, "Demo Channel 1") },
  { name: "low-latency player", path: "/playersldp?default=0", ready: (page) => heading(page, "Demo Channel 1") },
  { name: "page not found", path: "/no-such-page", ready: (page) => heading(page, "Page not found") },
  {
    name: "'Request a stream' modal",
    path: "/",
    ready: async (page) => {
      await page.getByRole("button", { name: "Request a stream" }).click()
      await dialog(page, "Request a stream")
    }
  },
  {
    name: "'Steam under maintenance' modal",
    path: "/",
    ready: async (page) => {
      await chooseStream("Closed Channel")(page)
      await dialog(page, "Steam under maintenance")
    }
  },
  {
    name: "'Purchase a subscription' modal",
    path: "/",
    ready: async (page) => {
      await chooseStream("Premium Channel")(page)
      await dialog(page, "Purchase a subscription")
    }
  }
]

/** The header's menus: the burger's panel on a phone, the two dropdowns on a desktop. */
const menuScreens = (viewport: (typeof VIEWPORTS)[number]): ReadonlyArray<Screen> =>
  viewport.name === "phone"
    ? [
        {
          name: "burger menu",
          path: "/",
          ready: async (page) => {
            await page.getByRole("banner").getByRole("button", { name: "Menu" }).click()
            await page.locator("#mobile-menu").waitFor()
          }
        }
      ]
    : ["Support", "Account"].map((menu) => ({
        name: `${menu} menu`,
        path: "/",
        ready: async (page: Page) => {
          await page.getByRole("banner").getByRole("button", { name: menu }).click()
          await page.getByRole("banner").getByRole("list").last().waitFor()
        }
      }))

const staffScreens: ReadonlyArray<Screen> = [
  { name: "admin reports", path: "/adminreports", ready: (page) => heading(page, "Admin Reports") },
  { name: "support tickets", path: "/adminsupport", ready: (page) => heading(page, "Support Tickets") },
  { name: "audit log", path: "/adminaudit", ready: (page) => heading(page, "Audit Log") }
]

/**
 * Rules axe rates below serious, checked whatever their impact: every piece of the page sits in a
 * landmark, and no image's alternative text repeats the text beside it.
 */
const LANDMARK_AND_ALT_RULES = ["region", "image-redundant-alt"]

const landmarkAndAltViolations = async (page: Page): Promise<Array<string>> => {
  const results = await new AxeBuilder({ page }).withRules(LANDMARK_AND_ALT_RULES).analyze()
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} at ${node.target.join(" > ")}: ${violation.help}`)
  )
}

const check = async (page: Page, screen: Screen) => {
  await page.goto(`${server.url}${typeof screen.path === "string" ? screen.path : screen.path()}`)
  await screen.ready(page)
  expect(await seriousViolations(page), screen.name).toEqual([])
  expect(await landmarkAndAltViolations(page), screen.name).toEqual([])
}

/** The announcement opens by itself on the first page after signing in; it is checked, then closed. */
const checkAnnouncementThenClose = async (page: Page) => {
  await dialog(page, "New channels")
  const violations = await seriousViolations(page)
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click()
  await page.getByRole("dialog").waitFor({ state: "detached" })
  expect(violations, "announcement").toEqual([])
}

describe.each(VIEWPORTS)("no serious or critical axe violations at $name width ($width px)", (viewport) => {
  describe("public screens", () => {
    let context: BrowserContext
    let page: Page
    beforeAll(async () => {
      context = await newContext(viewport)
      page = await context.newPage()
    })
    afterAll(async () => context?.close())

    it.each(publicScreens.map((screen) => [screen.name, screen] as const))("%s", async (_name, screen) => {
      await check(page, screen)
    })

    it("maintenance notice", async () => {
      await admin(
        server,
        "maintenance:on",
        "--title",
        "Planned works",
        "--first",
        "We are upgrading the servers",
        "--second",
        "Back within the hour"
      )
      try {
        await check(page, { name: "maintenance notice", path: "/login", ready: (p) => heading(p, "Planned works") })
      } finally {
        await admin(server, "maintenance:off")
      }
    })
  })

  describe("customer screens", () => {
    let context: BrowserContext
    let page: Page
    beforeAll(async () => {
      context = await newContext(viewport)
      page = await context.newPage()
      await signIn(page, server, CUSTOMER, PASSWORD)
    })
    afterAll(async () => context?.close())

    it("announcement", async () => {
      await checkAnnouncementThenClose(page)
    })

    it.each([...customerScreens, ...menuScreens(viewport)].map((screen) => [screen.name, screen] as const))("%s", async (_name, screen) => {
      await check(page, screen)
    })
  })

  describe("staff screens", () => {
    let context: BrowserContext
    let page: Page
    beforeAll(async () => {
      context = await newContext(viewport)
      page = await context.newPage()
      await signIn(page, server, STAFF, PASSWORD)
      await page.getByRole("dialog").getByRole("button", { name: "Close" }).click()
    })
    afterAll(async () => context?.close())

    it.each(staffScreens.map((screen) => [screen.name, screen] as const))("%s", async (_name, screen) => {
      await check(page, screen)
    })
  })
})
