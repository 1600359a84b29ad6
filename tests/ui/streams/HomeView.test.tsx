import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { TICKETS_PER_HOUR } from "../../../src/domain/Ticket.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const signedIn = (options: Parameters<typeof renderApp>[0] = {}) => renderApp({ signedIn: true, ...options })

describe("Home: the streams grid", () => {
  afterEach(resetApp)

  it("shows a card per stream with its image, title and the tags of the active player", async () => {
    await signedIn()
    const grid = await screen.findByRole("list", { name: "Streams" })
    expect(within(grid).getAllByRole("article")).toHaveLength(4)
    const card = screen.getByRole("button", { name: "Sports One" })
    // the poster is decoration: its alt text would only repeat the title beside it
    const poster = within(card).getByRole("presentation")
    expect([poster.tagName, poster.getAttribute("alt"), poster.getAttribute("src")]).toEqual(["IMG", "", "/img/1.svg"])

    // low-latency player (the default): lls icon, a red warning and a teal note
    const tags = within(card.closest("article") as HTMLElement).getByRole("list", { name: "Tags" })
    expect(within(tags).getByRole("link", { name: "Low-latency stream" }).getAttribute("href")).toBe("/support")
    expect(within(tags).getByRole("link", { name: "Warning: Audio out of sync" })).toBeTruthy()
    expect(within(tags).getByRole("link", { name: "Note: English commentary" })).toBeTruthy()

    fireEvent.click(screen.getByRole("button", { name: "Switch Stream Player" }))
    expect(within(tags).getByRole("link", { name: "Chromecast supported" })).toBeTruthy()
    expect(within(tags).getByRole("link", { name: "AirPlay supported" })).toBeTruthy()
    expect(within(tags).getByRole("link", { name: "HD" })).toBeTruthy()
  })

  it("shows and persists which player is active", async () => {
    const { storage } = await signedIn()
    await screen.findByRole("list", { name: "Streams" })
    const toggle = screen.getByRole("button", { name: "Switch Stream Player" })
    expect(toggle.getAttribute("aria-describedby")).toBe("player-choice")
    expect(screen.getByText("Playing in the low-latency player")).toBeTruthy()
    fireEvent.click(toggle)
    expect(screen.getByText("Playing in the TV player")).toBeTruthy()
    expect(storage.getPlayerChoice()).toBe(1)
  })

  it("opens the maintenance modal with its exact title and the Norwegian text", async () => {
    await signedIn()
    fireEvent.click(await screen.findByRole("button", { name: "Closed Channel" }))
    const dialog = await screen.findByRole("dialog", { name: "Steam under maintenance" })
    // marked as Norwegian, for screen readers to read it as such
    expect(
      within(dialog)
        .getByText(/Denne strømmen er under vedlikehold/)
        .getAttribute("lang")
    ).toBe("nb")
    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
  })

  it("marks a card for subscribers only with a lock before it is chosen, and only that card", async () => {
    await signedIn()
    const premium = await screen.findByRole("button", { name: "Premium Channel" })
    expect(premium.getAttribute("aria-describedby")).not.toBeNull()
    expect(within(premium.closest("article") as HTMLElement).getByText("Subscribers only")).toBeTruthy()
    // the lock describes the card's button, so a screen reader hears it with the name
    const described = (premium.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent)
    expect(described).toContain("Subscribers only")
    for (const name of ["Sports One", "Sports Two", "Closed Channel"]) {
      const card = screen.getByRole("button", { name }).closest("article") as HTMLElement
      expect(within(card).queryByText("Subscribers only")).toBeNull()
    }
  })

  it("offers plans for a stream without a source, leading to the subscription notice", async () => {
    await signedIn()
    fireEvent.click(await screen.findByRole("button", { name: "Premium Channel" }))
    const dialog = await screen.findByRole("dialog", { name: "Purchase a subscription" })
    fireEvent.click(within(dialog).getByRole("button", { name: "View Plans" }))
    expect(await screen.findByRole("heading", { name: "Subscription" })).toBeTruthy()
    expect(screen.getByText("The site is currently free to use.")).toBeTruthy()
    expect(screen.getByText(/about \$5 a month may be charged in the future/)).toBeTruthy()
    expect(window.location.pathname).toBe("/subscription")
  })

  it("plays a stream in the chosen player", async () => {
    await signedIn()
    fireEvent.click(await screen.findByRole("button", { name: "Sports Two" }))
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe("/playersldp?default=1"))
  })

  it("sends a stream request only with text, then confirms it", async () => {
    const { calls } = await signedIn()
    await screen.findByRole("list", { name: "Streams" })
    fireEvent.click(screen.getByRole("button", { name: "Request a stream" }))
    const dialog = await screen.findByRole("dialog", { name: "Request a stream" })
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }))
    expect(calls.some((call) => call.path === "/api/support/ticket")).toBe(false)

    fireEvent.change(within(dialog).getByLabelText("Stream you would like to watch"), { target: { value: "Sports Three, please" } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }))
    expect(await screen.findByText("Success!")).toBeTruthy()
    expect(screen.getByText("Your stream request has been submitted!")).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(calls.find((call) => call.path === "/api/support/ticket")?.body).toEqual({
      type: 3,
      subject: "stream request",
      description: "Sports Three, please"
    })
  })

  it("takes a request as short as a channel's name", async () => {
    const { calls } = await signedIn()
    await screen.findByRole("list", { name: "Streams" })
    fireEvent.click(screen.getByRole("button", { name: "Request a stream" }))
    const dialog = await screen.findByRole("dialog", { name: "Request a stream" })
    fireEvent.change(within(dialog).getByLabelText("Stream you would like to watch"), { target: { value: "TV2" } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }))
    expect(await screen.findByText("Your stream request has been submitted!")).toBeTruthy()
    expect(calls.find((call) => call.path === "/api/support/ticket")?.body).toEqual({
      type: 3,
      subject: "stream request",
      description: "TV2"
    })
  })

  it("reports a refused stream request with the server's detail", async () => {
    const { server, token } = await signedIn()
    // the account has opened as many tickets as an hour allows
    for (let n = 0; n < TICKETS_PER_HOUR; n += 1) {
      const answer = await server.fetch("/api/support/ticket", {
        method: "POST",
        headers: { "content-type": "application/json", Token: token ?? "" },
        body: JSON.stringify({ type: 5, subject: `Ticket ${n}`, description: "Opened before the request" })
      })
      expect(answer.status).toBe(200)
    }
    await screen.findByRole("list", { name: "Streams" })
    fireEvent.click(screen.getByRole("button", { name: "Request a stream" }))
    const dialog = await screen.findByRole("dialog", { name: "Request a stream" })
    fireEvent.change(within(dialog).getByLabelText("Stream you would like to watch"), { target: { value: "BBC" } })
    fireEvent.click(within(dialog).getByRole("button", { name: "Submit" }))
    expect(await screen.findByText("Something went wrong")).toBeTruthy()
    expect(screen.getByText(/^You can open 10 tickets an hour\. Try again in /)).toBeTruthy()
    // what was typed stays, to send again later
    expect((within(dialog).getByLabelText("Stream you would like to watch") as HTMLInputElement).value).toBe("BBC")
  })

  it("has a help link to the FAQ", async () => {
    await signedIn()
    expect((await screen.findByRole("link", { name: "Help" })).getAttribute("href")).toBe("/support")
  })

  it("says so when there are no streams", async () => {
    await signedIn({ streams: [] })
    expect(await screen.findByText("No streams are available right now. Please check back soon.")).toBeTruthy()
  })
})
