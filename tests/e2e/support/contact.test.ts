import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { admin, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import {
  expectEnGbDate,
  fieldMessage,
  focusedId,
  listedTicket,
  myTickets,
  notification,
  openTicketByApi,
  signedInPage,
  VIEWPORTS
} from "./contactHarness.ts"

const CHAT_URL = "https://chat.example/streamhub"
const HOSTILE_SUBJECT = `<img src=x onerror="document.title='owned'"> Player freezes`
const HOSTILE_DESCRIPTION = `It freezes after a minute.\n<img src=x onerror="document.title='owned'"><b>not bold</b>`

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  await admin(server, "settings:set", "--key", "chatUrl", "--value", CHAT_URL)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe.each(VIEWPORTS)("/contactus at $name width ($width px), in Chromium against the real server", (viewport) => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    ;({ context, page } = await signedInPage(server, browser, `asker.${viewport.name}@example.com`, viewport))
  })
  afterAll(async () => context?.close())

  it("is reached from the Support menu, links the chat, lists no tickets yet, and is axe clean", async () => {
    if (viewport.name === "phone") {
      await page.getByRole("button", { name: "Menu" }).click()
      await page.locator("#mobile-menu").getByRole("link", { name: "Contact Us" }).click()
    } else {
      await page.getByRole("banner").getByRole("button", { name: "Support" }).click()
      await page.getByRole("banner").getByRole("link", { name: "Contact Us" }).click()
    }
    await page.waitForURL(`${server.url}/contactus`)
    const chat = page.getByRole("link", { name: /Join the chat/ })
    expect(await chat.getAttribute("href")).toBe(CHAT_URL)
    expect(await chat.getAttribute("target")).toBe("_blank")
    await page.getByText("You have not opened any tickets yet.", { exact: false }).waitFor()
    expect(await page.getByLabel("Category").locator("option").allTextContents()).toEqual([
      "Choose a category",
      "Bug report",
      "Billing",
      "Stream service",
      "Subscription",
      "Other"
    ])
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
  })

  it("shows SPEC §5's messages at their fields by keyboard, accessibly, and focuses the first", async () => {
    await page.getByRole("button", { name: "Send ticket" }).focus()
    await page.keyboard.press("Enter")
    expect(await fieldMessage(page, "ticket-category").textContent()).toBe("Please select a vategory")
    expect(await fieldMessage(page, "ticket-subject").textContent()).toBe("Please enter a subject")
    expect(await fieldMessage(page, "ticket-description").textContent()).toBe("Please enter a description")
    for (const id of ["ticket-category", "ticket-subject", "ticket-description"]) {
      const control = page.locator(`#${id}`)
      expect(await control.getAttribute("aria-invalid")).toBe("true")
      expect((await control.getAttribute("aria-describedby"))?.split(" ")).toContain(`${id}-error`)
    }
    expect(await focusedId(page)).toBe("ticket-category")
    expect(await seriousViolations(page)).toEqual([])

    // a category chosen, the first message left is the subject's
    await page.keyboard.press("ArrowDown")
    await expect.poll(() => page.getByLabel("Category").inputValue()).toBe("1")
    await page.getByRole("button", { name: "Send ticket" }).press("Enter")
    expect(await fieldMessage(page, "ticket-category").count()).toBe(0)
    expect(await focusedId(page)).toBe("ticket-subject")
    expect(await myTickets(page)).toEqual([])
  })

  it("sends a ticket typed by keyboard, says 'Success!', and lists it with its status and date, markup as text", async () => {
    await page.getByLabel("Category").focus()
    await page.keyboard.press("ArrowDown")
    await expect.poll(() => page.getByLabel("Category").inputValue()).toBe("2")
    await page.keyboard.press("Tab")
    expect(await focusedId(page)).toBe("ticket-subject")
    await page.keyboard.type(HOSTILE_SUBJECT)
    await page.keyboard.press("Tab")
    expect(await focusedId(page)).toBe("ticket-description")
    await page.keyboard.insertText(HOSTILE_DESCRIPTION)
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await notification(page, "Success!").waitFor()
    await notification(page, "Ticket submitted").waitFor()
    const item = listedTicket(page, HOSTILE_SUBJECT)
    await item.waitFor()
    expect(await item.getByText("Status: Open").isVisible()).toBe(true)
    const meta = await item.getByText(/^Billing · Opened/).textContent()
    expectEnGbDate(meta)
    await item.getByText("Your message").click()
    expect(await item.locator("p", { hasText: "not bold" }).textContent()).toBe(HOSTILE_DESCRIPTION)
    expect(await page.locator("img[src='x']").count()).toBe(0)
    expect(await page.locator("main b").count()).toBe(0)
    expect(await page.title()).not.toBe("owned")
    expect(await page.getByLabel("Subject").inputValue()).toBe("")
    const [stored] = await myTickets(page)
    expect(stored).toMatchObject({ type: 2, subject: HOSTILE_SUBJECT, description: HOSTILE_DESCRIPTION, status: 1, player_context: null })
  })

  it("keeps everything typed when sending fails, says why, and sends it once the network is back", async () => {
    await page.route("**/api/support/ticket", (route) => route.abort("connectionreset"))
    await page.getByLabel("Category").selectOption("5")
    await page.getByLabel("Subject").fill("Second question")
    await page.getByLabel("Description").fill("Typed with care, not to be lost")
    await page.getByRole("button", { name: "Send ticket" }).click()
    await notification(page, "Something went wrong").waitFor()
    await notification(page, "Check your connection and try again.").waitFor()
    expect(await page.getByText(/Your ticket was not sent/).isVisible()).toBe(true)
    expect(await page.getByLabel("Category").inputValue()).toBe("5")
    expect(await page.getByLabel("Subject").inputValue()).toBe("Second question")
    expect(await page.getByLabel("Description").inputValue()).toBe("Typed with care, not to be lost")
    await page.unroute("**/api/support/ticket")
    await page.getByRole("button", { name: "Send ticket" }).click()
    await listedTicket(page, "Second question").waitFor()
    expect((await myTickets(page)).map((ticket) => ticket.subject)).toEqual(["Second question", HOSTILE_SUBJECT])
  })

  it("says how many tickets an hour are allowed, and when to try again, keeping the text", async () => {
    while ((await openTicketByApi(page, "Filler")) === 200) {
      // up to the hourly limit
    }
    expect(await myTickets(page)).toHaveLength(10)
    await page.getByLabel("Category").selectOption("4")
    await page.getByLabel("Subject").fill("One too many")
    await page.getByLabel("Description").fill("Over the hourly limit")
    await page.getByRole("button", { name: "Send ticket" }).click()
    await notification(page, "Something went wrong").waitFor()
    const detail = page
      .getByRole("list", { name: "Notifications" })
      .getByText(/^You can open 10 tickets an hour\. Try again in \d+ minutes\.$/)
    await detail.waitFor()
    expect(await page.getByLabel("Subject").inputValue()).toBe("One too many")
    expect(await page.getByLabel("Description").inputValue()).toBe("Over the hourly limit")
  })
})

describe("the ticket list when it cannot load", () => {
  it("says so and loads again on Try again", async () => {
    const { context, page } = await signedInPage(server, browser, "unlucky@example.com", VIEWPORTS[0])
    await page.route("**/api/support/tickets", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, status: 500, detail: "Internal server error" })
      })
    )
    await page.goto(`${server.url}/contactus`)
    await page.getByText("Your tickets could not be loaded. Please try again in a moment.").waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.unroute("**/api/support/tickets")
    await page.getByRole("button", { name: "Try again" }).press("Enter")
    await page.getByText("You have not opened any tickets yet.", { exact: false }).waitFor()
    await context.close()
  })
})
