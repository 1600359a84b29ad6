import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const staff = [{ email: "staff@example.com", staff: true }]

describe("the authenticated layout", () => {
  afterEach(resetApp)

  it("has the main links, a Support menu and an Account menu, and marks the active link", async () => {
    await renderApp({ signedIn: true, path: "/invites" })
    const header = await screen.findByRole("banner")
    const nav = within(header).getByRole("navigation", { name: "Main" })
    expect(within(nav).getByRole("link", { name: "Invites" }).getAttribute("aria-current")).toBe("page")
    expect(within(nav).getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBeNull()
    expect(within(nav).getByRole("link", { name: "Stream Schedule" }).getAttribute("href")).toBe("/stream-schedule")
    expect(screen.getByRole("heading", { name: "Invites" })).toBeTruthy()

    const support = within(nav).getByRole("button", { name: "Support" })
    expect(support.getAttribute("aria-expanded")).toBe("false")
    fireEvent.click(support)
    // the menu's actor starts with the page's effects, which may still be on their way on a busy machine
    await waitFor(() => expect(support.getAttribute("aria-expanded")).toBe("true"))
    expect(within(nav).getByRole("link", { name: "FAQ" }).getAttribute("href")).toBe("/support")
    expect(within(nav).getByRole("link", { name: "Contact Us" }).getAttribute("href")).toBe("/contactus")
    fireEvent.keyDown(within(nav).getByRole("link", { name: "FAQ" }), { key: "Escape" })
    expect(support.getAttribute("aria-expanded")).toBe("false")
    expect(document.activeElement).toBe(support)

    fireEvent.click(within(nav).getByRole("button", { name: "Account" }))
    fireEvent.click(within(nav).getByRole("link", { name: "Account settings" }))
    expect(await screen.findByRole("heading", { name: "Account settings" })).toBeTruthy()
    expect(within(nav).queryByRole("link", { name: "Account settings" })).toBeNull()
  })

  it("moves between menu items with the arrow keys", async () => {
    await renderApp({ signedIn: true })
    const support = await screen.findByRole("button", { name: "Support" })
    fireEvent.click(support)
    await waitFor(() => expect(support.getAttribute("aria-expanded")).toBe("true"))
    fireEvent.keyDown(support, { key: "ArrowDown" })
    expect(document.activeElement?.textContent).toBe("FAQ")
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowDown" })
    expect(document.activeElement?.textContent).toBe("Contact Us")
  })

  it("shows the staff links only to staff", async () => {
    await renderApp({ signedIn: true })
    await screen.findByRole("banner")
    await screen.findByRole("list", { name: "Streams" })
    expect(screen.queryByRole("link", { name: "Admin Reports" })).toBeNull()
    await resetApp()

    await renderApp({ signedIn: true, users: staff })
    expect((await screen.findByRole("link", { name: "Admin Reports" })).getAttribute("href")).toBe("/adminreports")
    expect(screen.getByRole("link", { name: "Support Tickets" }).getAttribute("href")).toBe("/adminsupport")
  })

  it("keeps staff pages from everyone else", async () => {
    await renderApp({ signedIn: true, path: "/adminreports" })
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy()
    await resetApp()
    await renderApp({ signedIn: true, users: staff, path: "/adminreports" })
    expect(await screen.findByRole("heading", { name: "Admin Reports" })).toBeTruthy()
  })

  it("has an accessible burger menu", async () => {
    await renderApp({ signedIn: true })
    const burger = await screen.findByRole("button", { name: "Menu" })
    expect(burger.getAttribute("aria-expanded")).toBe("false")
    fireEvent.click(burger)
    await waitFor(() => expect(burger.getAttribute("aria-expanded")).toBe("true"))
    const panel = document.getElementById(burger.getAttribute("aria-controls") ?? "")
    expect(panel).not.toBeNull()
    const links = within(panel as HTMLElement)
      .getAllByRole("link")
      .map((link) => link.textContent)
    expect(links).toEqual(["Home", "Stream Schedule", "Invites", "FAQ", "Contact Us", "Account settings", "Reminders"])
    expect(within(panel as HTMLElement).getByRole("button", { name: "Log out" })).toBeTruthy()
    fireEvent.keyDown(within(panel as HTMLElement).getByRole("link", { name: "FAQ" }), { key: "Escape" })
    expect(burger.getAttribute("aria-expanded")).toBe("false")
    expect(document.getElementById("mobile-menu")).toBeNull()

    fireEvent.click(burger)
    fireEvent.click(within(document.getElementById("mobile-menu") as HTMLElement).getByRole("link", { name: "FAQ" }))
    expect(await screen.findByRole("heading", { name: "FAQ" })).toBeTruthy()
    expect(burger.getAttribute("aria-expanded")).toBe("false")
  })

  it("links the footer to the external stream schedule and notes the two channels", async () => {
    await renderApp({ signedIn: true, settings: { scheduleUrl: "https://schedule.example/" } })
    const footer = await screen.findByRole("contentinfo")
    expect(within(footer).getByRole("link", { name: "See the full stream schedule" }).getAttribute("href")).toBe(
      "https://schedule.example/"
    )
    expect(within(footer).getByText(/Only two sports channels are streamed at the moment; more will be added/)).toBeTruthy()
  })

  it("notes the two channels on the streams page only, while every page links the schedule", async () => {
    await renderApp({ signedIn: true, path: "/invites", settings: { scheduleUrl: "https://schedule.example/" } })
    expect(await screen.findByRole("heading", { name: "Invites", level: 1 })).toBeTruthy()
    const footer = screen.getByRole("contentinfo")
    expect(within(footer).getByRole("link", { name: "See the full stream schedule" })).toBeTruthy()
    expect(within(footer).queryByText(/Only two sports channels/)).toBeNull()

    fireEvent.click(within(screen.getByRole("banner")).getByRole("link", { name: "Home" }))
    expect(await within(footer).findByText(/Only two sports channels/)).toBeTruthy()
  })

  it("shows a new announcement once, remembering it on Close", async () => {
    const announcement = { token: "ann-1", title: "New: Sports Two", text: "A second channel is live." }
    const { storage } = await renderApp({ signedIn: true, announcement })
    const dialog = await screen.findByRole("dialog", { name: "New: Sports Two" })
    expect(within(dialog).getByText("A second channel is live.")).toBeTruthy()
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(storage.getAnnouncementToken()).toBe("ann-1")
    await resetApp()

    window.localStorage.setItem("announcementToken", "ann-1")
    await renderApp({ signedIn: true, announcement })
    await screen.findByRole("list", { name: "Streams" })
    expect(screen.queryByRole("dialog")).toBeNull()
  })

  it("shows the six FAQ pairs", async () => {
    await renderApp({ signedIn: true, path: "/support" })
    await screen.findByRole("heading", { name: "FAQ" })
    const questions = screen.getAllByRole("term").map((term) => term.textContent)
    expect(questions).toEqual([
      "Can I cast streams to my TV?",
      "Is the site safe to use?",
      "Which browsers are supported?",
      "How do I contact you?",
      "Can I share my account?",
      "Do I have to pay?"
    ])
    expect(screen.getAllByRole("definition")).toHaveLength(6)
  })

  it("has a heading on every placeholder page", async () => {
    for (const [path, heading] of [
      ["/stream-schedule", "Stream Schedule"],
      ["/contactus", "Contact Us"],
      ["/transactions", "Transactions"],
      ["/no-such-page", "Page not found"]
    ]) {
      await renderApp({ signedIn: true, path })
      expect(await screen.findByRole("heading", { level: 1, name: heading })).toBeTruthy()
      await resetApp()
    }
  })
})
