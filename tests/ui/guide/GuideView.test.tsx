import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { TV_PLAYER } from "../../../src/domain/playerChoice.ts"
import { localDayBounds, scheduleDays } from "../../../src/domain/ScheduleDays.ts"
import { PLAYER_CHOICE_STORAGE_KEY } from "../../../src/domain/StorageKeys.ts"
import { importGuide } from "../../../src/server/guide/importGuide.ts"
import type { InProcessServer } from "../../support/inProcessServer.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { demoStreams } from "../../support/serverSeed.ts"

const MINUTE = 60_000
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
const TIME = /^\d{1,2}:\d{2} (AM|PM)$/

// Sports One, Sports Two and the Closed Channel (under maintenance) each have a guide channel.
const streams = demoStreams.map((stream, index) => (index < 3 ? { ...stream, epg_channel_id: `ch${index + 1}.test` } : stream))

const xmltvTime = (ms: number): string => `${new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14)} +0000`
const programme = (channel: string, start: number, minutes: number, title: string, subtitle: string) =>
  `<programme start="${xmltvTime(start)}" stop="${xmltvTime(start + minutes * MINUTE)}" channel="${channel}"><title>${title}</title><sub-title>${subtitle}</sub-title></programme>`

/** A small guide around now, in the zone the page runs in: something on now, tomorrow and in five days. */
const guideAroundNow = (now: number) => {
  const days = scheduleDays(now, zone)
  const noon = (index: number) => localDayBounds(days[index] ?? "", zone).start + 12 * 60 * MINUTE
  // what is on now ends with today, so tomorrow's list holds tomorrow's programmes only, whatever the hour
  const endOfToday = localDayBounds(days[0] ?? "", zone).end
  const onNow = (channel: string, startedMinutesAgo: number, minutes: number, title: string, subtitle: string) => {
    const start = now - startedMinutesAgo * MINUTE
    return programme(channel, start, Math.min(minutes, Math.floor((endOfToday - start) / MINUTE)), title, subtitle)
  }
  return `<?xml version="1.0" encoding="UTF-8"?><tv>
    ${["ch1.test", "ch2.test", "ch3.test"].map((id) => `<channel id="${id}"><display-name>${id}</display-name></channel>`).join("")}
    ${onNow("ch1.test", 30, 60, "Evening News", "Headlines and weather")}
    ${programme("ch1.test", noon(1), 60, "Morning Rowing", "Lake final")}
    ${onNow("ch2.test", 10, 90, "Cup Final", "Harbour City v Northfield")}
    ${programme("ch2.test", noon(5), 120, "Ski Jumping", "World Cup, Vikersund")}
    ${onNow("ch3.test", 5, 60, "Closed Concert", "Live from the hall")}
  </tv>`
}

const withGuide = async (server: InProcessServer) => {
  await importGuide(
    server.db.kysely,
    (async function* () {
      yield guideAroundNow(Date.now())
    })(),
    { now: Date.now() }
  )
  return "/stream-schedule"
}

/** Records the URLs the app asks for, query strings included. */
const urls: Array<string> = []
const recordUrls =
  (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
  (input, init) => {
    urls.push(String(input instanceof Request ? input.url : input))
    return fetch(input, init)
  }

const openGuide = (options: Parameters<typeof renderApp>[0] = {}) =>
  renderApp({ signedIn: true, streams, path: withGuide, wrapFetch: recordUrls, ...options })

const channel = async (name: string) => screen.findByRole("region", { name })

describe("Stream Schedule: the programme guide", () => {
  beforeEach(() => {
    // the list's virtualiser puts the page where it found it on mount; jsdom has no scrolling
    vi.spyOn(window, "scrollTo").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    urls.length = 0
    vi.restoreAllMocks()
    await resetApp()
  })

  it("shows today's programmes by channel in the viewer's zone, LIVE first, with 12-hour times", async () => {
    await openGuide()
    expect(await screen.findByRole("heading", { name: "Stream Schedule", level: 1 })).toBeTruthy()
    const sportsOne = await channel("Sports One")
    const news = within(sportsOne).getByText("Evening News").closest("li") as HTMLElement
    expect(within(news).getByText("LIVE")).toBeTruthy()
    expect(within(news).getByText("Headlines and weather")).toBeTruthy()
    for (const time of within(news).getAllByText(TIME)) expect(time.tagName).toBe("TIME")
    expect(within(sportsOne).queryByText("Morning Rowing")).toBeNull()
    expect(screen.getByRole("list", { name: "Channels" })).toBeTruthy()
    expect(urls.find((url) => url.includes("/api/scheduler/"))).toContain(
      `/api/scheduler/${scheduleDays(Date.now(), zone)[0]}?tz=${encodeURIComponent(zone)}`
    )
  })

  it("offers today and the next six days, and loads the day chosen", async () => {
    await openGuide()
    await channel("Sports One")
    const select = screen.getByRole("combobox", { name: "Day" })
    const options = within(select).getAllByRole("option")
    expect(options.map((option) => option.getAttribute("value"))).toEqual(scheduleDays(Date.now(), zone))
    expect(options[0]?.textContent).toMatch(/^Today, \w+day \d{1,2} \w+$/)
    expect(options[1]?.textContent).toMatch(/^Tomorrow, /)

    fireEvent.change(select, { target: { value: options[1]?.getAttribute("value") } })
    expect(await screen.findByText("Morning Rowing")).toBeTruthy()
    expect(screen.queryByText("LIVE")).toBeNull()
  })

  it("says 'No data for that day' for a day without programmes", async () => {
    await openGuide()
    await channel("Sports One")
    const select = screen.getByRole("combobox", { name: "Day" })
    fireEvent.change(select, { target: { value: within(select).getAllByRole("option")[6]?.getAttribute("value") } })
    expect(await screen.findByText("No data for that day")).toBeTruthy()
  })

  it("opens a LIVE programme on one of our streams in the chosen player, and offers no Watch for a stream under maintenance", async () => {
    await openGuide()
    const closed = await channel("Closed Channel")
    expect(within(closed).getByText("LIVE")).toBeTruthy()
    expect(within(closed).queryByRole("link")).toBeNull()
    fireEvent.click(within(await channel("Sports Two")).getByRole("link", { name: "Watch Cup Final on Sports Two" }))
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe("/playersldp?default=1"))
  })

  it("uses the TV player when that is the viewer's stored choice", async () => {
    window.localStorage.setItem(PLAYER_CHOICE_STORAGE_KEY, String(TV_PLAYER))
    await openGuide()
    fireEvent.click(within(await channel("Sports One")).getByRole("link", { name: "Watch Evening News on Sports One" }))
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe("/player?default=0"))
  })

  it("finds a programme days ahead by its subtitle, with its day and channel", async () => {
    await openGuide()
    await channel("Sports One")
    fireEvent.change(screen.getByRole("searchbox", { name: "Search programmes" }), { target: { value: "vikersund" } })
    const results = await screen.findByRole("list", { name: "Matching programmes" })
    await waitFor(() => expect(screen.getByText("1 programme found")).toBeTruthy())
    const match = within(results).getByRole("listitem")
    expect(within(match).getByText("Ski Jumping")).toBeTruthy()
    expect(within(match).getByText("Sports Two")).toBeTruthy()
    expect(within(match).getByText(/^\w{3} \d{1,2} \w{3}$/)).toBeTruthy()
    expect(urls.filter((url) => url.includes("/api/scheduler/"))).toHaveLength(7)

    fireEvent.change(screen.getByRole("searchbox", { name: "Search programmes" }), { target: { value: "" } })
    expect(await screen.findByRole("list", { name: "Channels" })).toBeTruthy()
  })

  it("says the guide could not be loaded, and loads it on Try again", async () => {
    let failures = 1
    await openGuide({
      wrapFetch: (fetch) => async (input, init) => {
        if (String(input).includes("/api/scheduler/") && failures-- > 0) {
          return new Response(JSON.stringify({ success: false, status: 500, detail: "Database unavailable" }), {
            status: 500,
            headers: { "content-type": "application/json" }
          })
        }
        return fetch(input, init)
      }
    })
    const alert = await screen.findByRole("alert")
    expect(within(alert).getByText("The programme guide could not be loaded. Please try again in a moment.")).toBeTruthy()
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }))
    expect(await channel("Sports One")).toBeTruthy()
  })

  it("says when the Watch links are missing because the streams could not be loaded, and brings them back on Try again", async () => {
    let failures = 1
    await openGuide({
      wrapFetch: (fetch) => async (input, init) => {
        if (String(input).endsWith("/api/streams/all") && failures-- > 0) {
          return new Response(JSON.stringify({ success: false, status: 500, detail: "Database unavailable" }), {
            status: 500,
            headers: { "content-type": "application/json" }
          })
        }
        return fetch(input, init)
      }
    })
    const sportsTwo = await channel("Sports Two")
    const notice = await screen.findByText("The streams could not be loaded, so the programmes have no Watch links for now.")
    expect(within(sportsTwo).queryByRole("link")).toBeNull()
    fireEvent.click(within(notice.parentElement as HTMLElement).getByRole("button", { name: "Try again" }))
    expect(await within(await channel("Sports Two")).findByRole("link", { name: "Watch Cup Final on Sports Two" })).toBeTruthy()
    expect(screen.queryByText("The streams could not be loaded, so the programmes have no Watch links for now.")).toBeNull()
  })
})
