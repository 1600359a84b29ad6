import type { Browser, BrowserContext, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ANNOUNCEMENT_STORAGE_KEY } from "../../../src/domain/StorageKeys.ts"
import {
  addStream,
  addStreamWithoutSource,
  admin,
  launchBrowser,
  type RunningServer,
  signIn,
  startServer
} from "../../support/e2eHarness.ts"

const EMAIL = "focus@example.com"
const PASSWORD = "correct horse battery"

let server: RunningServer
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer(), launchBrowser()])
  await admin(server, "user:create", "--email", EMAIL, "--password", PASSWORD)
  const closed = await addStream(server, "--title", "Closed Channel", "--src", "/live/demo1/index.m3u8")
  await admin(server, "stream:maintenance", "--id", String(closed), "--on")
  await addStreamWithoutSource(server, "Premium Channel")
  await admin(server, "announce", "--title", "New channels", "--text", "Two more sports channels arrive next week.")
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: "reduce" })
  page = await context.newPage()
  await signIn(page, server, EMAIL, PASSWORD)
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click()
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.stop()
})

/** What has focus, described for a readable failure. */
const activeElement = () =>
  page.evaluate(() => {
    const element = document.activeElement
    if (element === null || element === document.body) return "body"
    return `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`
  })

/** "the opener" when it has focus, else what has. */
const focusOn = (opener: Locator) => async (): Promise<string> =>
  (await opener.evaluate((element) => element === document.activeElement)) ? "the opener" : activeElement()

type Opening = "pointer" | "keyboard"

const open = async (opener: Locator, how: Opening) => {
  if (how === "pointer") {
    await opener.click()
  } else {
    await opener.focus()
    await page.keyboard.press("Enter")
  }
}

/** The ways a dialog closes; the overlay is clicked at a corner, well outside the dialog. */
const dialogClosers = (button: string): Record<string, () => Promise<void>> => ({
  "the Escape key": () => page.keyboard.press("Escape"),
  [`the ${button} button`]: () => page.getByRole("dialog").getByRole("button", { name: button }).click(),
  // Radix listens for outside clicks from a timer it sets when the dialog mounts; a task queued
  // after it runs after it, so the click cannot land in between (no person is that quick)
  "a click on the overlay": async () => {
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)))
    await page.mouse.click(8, page.viewportSize()!.height - 8)
  }
})

const home = async () => {
  await page.goto(`${server.url}/`)
  await page.getByRole("button", { name: /Demo Channel 1/ }).waitFor()
}

const dialogCases: ReadonlyArray<{
  readonly dialog: string
  readonly opener: () => Locator
  readonly closers: Record<string, () => Promise<void>>
}> = [
  { dialog: "Request a stream", opener: () => page.getByRole("button", { name: "Request a stream" }), closers: dialogClosers("Cancel") },
  {
    dialog: "Steam under maintenance",
    opener: () => page.getByRole("button", { name: /Closed Channel/ }),
    closers: dialogClosers("Close")
  },
  {
    dialog: "Purchase a subscription",
    opener: () => page.getByRole("button", { name: /Premium Channel/ }),
    closers: dialogClosers("Close")
  }
]

describe("focus goes back to what opened a dialog, in Chromium against the real server", () => {
  for (const { dialog, opener, closers } of dialogCases) {
    for (const how of ["pointer", "keyboard"] as const) {
      for (const [way, close] of Object.entries(closers)) {
        it(`'${dialog}', opened by ${how}, closed with ${way}`, async () => {
          await home()
          await open(opener(), how)
          await page.getByRole("dialog", { name: dialog }).waitFor()
          await close()
          await page.getByRole("dialog").waitFor({ state: "detached" })
          await expect.poll(focusOn(opener())).toBe("the opener")
        })
      }
    }
  }

  for (const how of ["pointer", "keyboard"] as const) {
    it(`'Request a stream', opened by ${how}, closed by submitting a request`, async () => {
      await home()
      const opener = page.getByRole("button", { name: "Request a stream" })
      await open(opener, how)
      await page.getByRole("dialog", { name: "Request a stream" }).getByRole("textbox").fill("More cricket, please")
      await page.getByRole("dialog").getByRole("button", { name: "Submit" }).click()
      await page.getByRole("dialog").waitFor({ state: "detached" })
      await expect.poll(focusOn(opener)).toBe("the opener")
    })
  }

  for (const width of [1440, 390]) {
    for (const way of ["Escape", "the Close button", "a click on the overlay"] as const) {
      it(`the announcement, which opens by itself, closed with ${way} at ${width} px: focus on the page heading, below the header`, async () => {
        await page.setViewportSize({ width, height: 844 })
        await page.evaluate((key) => localStorage.removeItem(key), ANNOUNCEMENT_STORAGE_KEY)
        // the announcement arrives once the viewer has scrolled down the page
        let deliver = () => {}
        const held = new Promise<void>((resolve) => {
          deliver = resolve
        })
        await page.route("**/api/announcement/latest", async (route) => {
          await held
          await route.continue()
        })
        await home()
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
        // the grid fits a desktop's window; a phone's is taller than its screen
        if (width === 390) await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
        deliver()
        await page.getByRole("dialog", { name: "New channels" }).waitFor()
        await page.unroute("**/api/announcement/latest")
        if (way === "Escape") await page.keyboard.press("Escape")
        else if (way === "the Close button") await page.getByRole("dialog").getByRole("button", { name: "Close" }).click()
        else await page.mouse.click(8, page.viewportSize()!.height - 8)
        await page.getByRole("dialog").waitFor({ state: "detached" })
        await expect.poll(activeElement).toBe('h1 "Live streams"')
        // nothing of the heading sits under the sticky header
        const headerBottom = await page.getByRole("banner").evaluate((header) => header.getBoundingClientRect().bottom)
        const headingTop = await page.getByRole("heading", { level: 1 }).evaluate((heading) => heading.getBoundingClientRect().top)
        expect(headingTop).toBeGreaterThanOrEqual(headerBottom)
        await page.setViewportSize({ width: 1440, height: 900 })
      })
    }
  }
})

describe("focus goes back to the button of a header menu, in Chromium against the real server", () => {
  const menus = [
    {
      menu: "Support",
      width: 1440,
      button: () => page.getByRole("banner").getByRole("button", { name: "Support" }),
      link: "FAQ",
      path: "/support"
    },
    {
      menu: "Account",
      width: 1440,
      button: () => page.getByRole("banner").getByRole("button", { name: "Account" }),
      link: "Account settings",
      path: "/profile"
    },
    {
      menu: "burger",
      width: 390,
      button: () => page.getByRole("banner").getByRole("button", { name: "Menu" }),
      link: "Invites",
      path: "/invites"
    }
  ]
  for (const { menu, width, button, link, path } of menus) {
    for (const how of ["pointer", "keyboard"] as const) {
      const closers: Record<string, () => Promise<void>> = {
        "the Escape key": () => page.keyboard.press("Escape"),
        "its button again": () => (how === "pointer" ? button().click() : button().press("Enter")),
        [`choosing ${link}`]: async () => {
          const item = page.getByRole("banner").getByRole("link", { name: link, exact: true }).last()
          if (how === "pointer") await item.click()
          else await item.press("Enter")
          await page.waitForURL(`${server.url}${path}`)
        }
      }
      for (const [way, close] of Object.entries(closers)) {
        it(`the ${menu} menu at ${width} px, opened by ${how}, closed with ${way}`, async () => {
          await page.setViewportSize({ width, height: 900 })
          await home()
          await open(button(), how)
          expect(await button().getAttribute("aria-expanded")).toBe("true")
          await close()
          expect(await button().getAttribute("aria-expanded")).toBe("false")
          await expect.poll(focusOn(button())).toBe("the opener")
          await page.setViewportSize({ width: 1440, height: 900 })
        })
      }
    }
  }
})
