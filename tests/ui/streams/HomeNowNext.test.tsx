import { screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { api } from "../../../src/domain/contract/api.ts"
import { clockTime } from "../../../src/machines/streams/nowNextProgrammes.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { fakeGuide, programmeAround } from "./guideFake.ts"

const card = (name: string): HTMLElement => screen.getByRole("button", { name }).closest("article") as HTMLElement

describe("Home: now and next on the cards", () => {
  afterEach(resetApp)

  it("shows the programme on now with how far through it is, and the next one with its start time", async () => {
    const at = Date.now()
    const next = programmeAround(at, 18, 78, "Match of the Day", "Live from the stadium")
    const guide = fakeGuide({ "Sports One": { now: programmeAround(at, -12, 18, "Evening News", "Headlines"), next } })
    await renderApp({ signedIn: true, wrapFetch: guide.wrapFetch })

    const progress = await screen.findByRole("progressbar", { name: "Live, 40% through" })
    const sportsOne = card("Sports One")
    expect(within(sportsOne).getByRole("progressbar")).toBe(progress)
    expect(progress.getAttribute("value")).toBe("40")
    expect(within(sportsOne).getByText("Evening News")).toBeTruthy()
    expect(within(sportsOne).getByText("Now")).toBeTruthy()
    expect(within(sportsOne).getByText("Next")).toBeTruthy()
    const time = within(sportsOne).getByText(clockTime(next.StartTime))
    expect(time.tagName).toBe("TIME")
    expect(time.getAttribute("datetime")).toBe(next.StartTime)
    expect(clockTime(next.StartTime)).toMatch(/^\d{1,2}:\d{2} [AP]M$/)
    expect(within(sportsOne).getByText("Match of the Day")).toBeTruthy()
    // the card's name stays the channel's; what airs describes it
    const choose = screen.getByRole("button", { name: "Sports One", description: /Evening News.*Match of the Day/ })
    expect(choose).toBeTruthy()
  })

  it("gives a card without a guide nothing extra", async () => {
    const at = Date.now()
    const guide = fakeGuide({
      "Sports One": { now: programmeAround(at, -12, 18, "Evening News"), next: null },
      "Closed Channel": { now: null, next: null }
    })
    await renderApp({ signedIn: true, wrapFetch: guide.wrapFetch })
    await screen.findByRole("progressbar", { name: "Live, 40% through" })
    for (const name of ["Sports Two", "Closed Channel", "Premium Channel"]) {
      const item = card(name)
      expect(within(item).queryByRole("progressbar")).toBeNull()
      expect(within(item).queryByText(/^(Now|Next)$/)).toBeNull()
      expect(item.querySelector("time")).toBeNull()
    }
    expect(screen.getByRole("button", { name: "Sports Two" }).getAttribute("aria-describedby")).toBeNull()
    // the one in maintenance is still described by its badge alone
    expect(screen.getByRole("button", { name: "Closed Channel", description: "Maintenance" })).toBeTruthy()
    // nothing is shown after a programme that has no successor in the guide
    expect(within(card("Sports One")).queryByText("Next")).toBeNull()
  })

  it("asks what airs only after the streams, and shows the grid whatever the answer", async () => {
    const guide = fakeGuide({}, { fail: true })
    await renderApp({ signedIn: true, wrapFetch: guide.wrapFetch })
    const grid = await screen.findByRole("list", { name: "Streams" })
    await waitFor(() => expect(guide.asked).toContain(api.nowNext.path))
    expect(guide.asked.indexOf(api.streams.path)).toBeGreaterThanOrEqual(0)
    expect(guide.asked.indexOf(api.streams.path)).toBeLessThan(guide.asked.indexOf(api.nowNext.path))
    expect(within(grid).getAllByRole("article")).toHaveLength(4)
    expect(screen.queryByRole("progressbar")).toBeNull()
    expect(screen.queryByRole("alert")).toBeNull()
  })
})
