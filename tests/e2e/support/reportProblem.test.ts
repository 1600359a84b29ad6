import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriousViolations } from "../../support/axe.ts"
import { addStream, launchBrowser, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { focusedId, listedTicket, myTickets, notification, signedInPage, VIEWPORTS } from "./contactHarness.ts"

let server: RunningServer
let browser: Browser
let missing = ""

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: "1000" }), launchBrowser()])
  // a channel our origin does not have: its playlist answers 404
  missing = `${server.url}/live/no-such-channel/index.m3u8`
  await addStream(server, "--title", "Broken Channel", "--src", missing, "--src-sldp", missing)
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const PLAYERS = [
  { path: "/playersldp", player: 2, label: "Low-latency player" },
  { path: "/player", player: 1, label: "TV player" }
] as const

const attached = (page: Page) => page.getByRole("region", { name: "Attached" })

describe.each(VIEWPORTS)("'Report a problem' from a broken stream at $name width ($width px)", (viewport) => {
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    ;({ context, page } = await signedInPage(server, browser, `reporter.${viewport.name}@example.com`, viewport))
  })
  afterAll(async () => context?.close())

  /** Opens the player on the broken stream and follows the error box's link by keyboard. */
  const reportFrom = async (path: string) => {
    await page.goto(`${server.url}${path}?default=2`)
    const alert = page.getByRole("alert").filter({ hasText: "Error code" })
    await alert.waitFor()
    await alert.getByText("A network error occurred").waitFor()
    const link = alert.getByRole("link", { name: "Report a problem" })
    await link.focus()
    await page.keyboard.press("Enter")
    await page.waitForURL(/\/contactus\?/)
    await page.getByRole("heading", { name: "Contact Us" }).waitFor()
  }

  it("the source really answers 404, with the grant the viewer's list gives it", async () => {
    const signed = await page.evaluate(async () => {
      const answer = await fetch("/api/streams/all", { headers: { Token: localStorage.getItem("Token") ?? "" } })
      const { data } = (await answer.json()) as { data: Array<{ title: string; src: string }> }
      return data.find((stream) => stream.title === "Broken Channel")?.src ?? ""
    })
    expect(signed.startsWith(`${missing}?grant=`)).toBe(true)
    expect((await fetch(signed)).status).toBe(404)
  })

  for (const { path, player, label } of PLAYERS) {
    it(`from ${path}: opens the form with the stream, player, error and browser attached, stream service and a subject chosen`, async () => {
      await reportFrom(path)
      const url = new URL(page.url())
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ stream: "Broken Channel", player: String(player), error: "2" })
      expect(url.searchParams.get("browser")).toBe(await page.evaluate(() => navigator.userAgent.slice(0, 300)))
      const panel = attached(page)
      expect(await panel.getByRole("definition").allTextContents()).toEqual([
        "Broken Channel",
        label,
        "A network error occurred (code 2)",
        await page.evaluate(() => navigator.userAgent)
      ])
      expect(await page.getByLabel("Category").inputValue()).toBe("3")
      expect(await page.getByLabel("Subject").inputValue()).toBe("Problem playing Broken Channel")
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      expect(await seriousViolations(page)).toEqual([])
    })
  }

  it("removes the attachment by keyboard, keeps the rest, and sends the ticket without it", async () => {
    await page.getByRole("button", { name: /Remove/ }).focus()
    await page.keyboard.press("Enter")
    await attached(page).waitFor({ state: "detached" })
    await page.waitForURL(`${server.url}/contactus`)
    expect(await focusedId(page)).toBe("ticket-category")
    expect(await page.getByLabel("Subject").inputValue()).toBe("Problem playing Broken Channel")
    await page.getByLabel("Subject").fill("No details, please")
    await page.getByLabel("Description").fill("The TV player would not start")
    await page.getByLabel("Description").press("Tab")
    await page.keyboard.press("Enter")
    await notification(page, "Ticket submitted").waitFor()
    await listedTicket(page, "No details, please").waitFor()
    const [sent] = await myTickets(page)
    expect(sent).toMatchObject({ type: 3, subject: "No details, please", player_context: null })
  })

  it("sends the context with the ticket, and lists it as attached", async () => {
    await reportFrom("/playersldp")
    await page.getByLabel("Description").fill("Black screen, then the error box")
    await page.getByRole("button", { name: "Send ticket" }).click()
    await notification(page, "Ticket submitted").waitFor()
    await attached(page).waitFor({ state: "detached" })
    const item = listedTicket(page, "Problem playing Broken Channel")
    await item.getByText("Attached: Broken Channel, Low-latency player, A network error occurred (code 2)").waitFor()
    const [sent] = await myTickets(page)
    expect(sent?.player_context).toEqual({
      stream: "Broken Channel",
      player: 2,
      errorCode: 2,
      browser: await page.evaluate(() => navigator.userAgent.slice(0, 300))
    })
    // sent: the address no longer carries the report, so a reload attaches nothing again
    await page.waitForURL(`${server.url}/contactus`)
    await page.reload()
    await page.getByRole("heading", { name: "Open a ticket" }).waitFor()
    expect(await attached(page).count()).toBe(0)
  })

  it("attaches nothing from a doctored link", async () => {
    await page.goto(`${server.url}/contactus?stream=Broken%20Channel&player=9&error=2&browser=x`)
    await page.getByRole("heading", { name: "Open a ticket" }).waitFor()
    expect(await attached(page).count()).toBe(0)
    expect(await page.getByLabel("Category").inputValue()).toBe("")
  })
})
