import { fireEvent, screen, waitFor, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { NO_REMINDERS } from "../../../src/domain/Reminder.ts"
import { importGuide } from "../../../src/server/guide/importGuide.ts"
import type { InProcessServer } from "../../support/inProcessServer.ts"
import { click, takenEvents } from "../../support/modelSteps.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"
import { demoStreams } from "../../support/serverSeed.ts"
import { remindersPaths } from "./reminders.model.ts"

const HOUR = 3_600_000
const TITLE = "Evening Derby"
const streams = demoStreams.map((stream, index) => (index === 0 ? { ...stream, epg_channel_id: "ch1.test" } : stream))
const xmltvTime = (ms: number): string => `${new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14)} +0000`

/** A programme two hours from now on Sports One; the answer is when it starts. */
const withGuide = async (server: InProcessServer): Promise<number> => {
  const start = Math.ceil((Date.now() + 2 * HOUR) / 60_000) * 60_000
  const text = `<?xml version="1.0" encoding="UTF-8"?><tv><channel id="ch1.test"><display-name>ch1</display-name></channel>
    <programme start="${xmltvTime(start)}" stop="${xmltvTime(start + HOUR)}" channel="ch1.test"><title>${TITLE}</title></programme></tv>`
  await importGuide(
    server.db.kysely,
    (async function* () {
      yield text
    })(),
    { now: Date.now() }
  )
  return start
}

const tile = async () => {
  const channel = await screen.findByRole("region", { name: "Sports One" })
  return (await within(channel).findByText(TITLE)).closest("li") as HTMLElement
}
const remindersList = () => screen.findByRole("list", { name: "Your reminders" })

describe("setting reminders", () => {
  beforeEach(() => {
    // the guide's virtualiser puts the page where it found it on mount; jsdom has no scrolling
    vi.spyOn(window, "scrollTo").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await resetApp()
  })

  for (const path of remindersPaths()) {
    it(path.description, async () => {
      await path.test({
        states: {
          closed: () => {},
          guide: async () => {
            expect(await within(await tile()).findByRole("button", { name: `Remind me of ${TITLE} on Sports One` })).toBeTruthy()
          },
          dialog: async () => {
            const dialog = await screen.findByRole("dialog", { name: "Remind me" })
            expect(dialog.textContent).toContain(`${TITLE} on Sports One`)
            expect(within(dialog).getByRole<HTMLInputElement>("radio", { name: "10 minutes before" }).checked).toBe(true)
          },
          guideSet: async () => {
            const set = await tile()
            expect(await within(set).findByText(/^Reminder set · \d{1,2}:\d{2} (AM|PM)$/)).toBeTruthy()
            expect(within(set).getByRole("button", { name: `Remove the reminder for ${TITLE}` })).toBeTruthy()
          },
          listed: async () => {
            const list = await remindersList()
            expect(await within(list).findByText(TITLE)).toBeTruthy()
            expect(within(list).getByText(/^Email at \d{1,2}:\d{2} (AM|PM), 30 minutes before$/)).toBeTruthy()
          },
          feedShown: async () => {
            const address = await screen.findByLabelText<HTMLInputElement>(/^Feed address/)
            expect(address.value).toMatch(/^http:\/\/localhost:3000\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
            expect(screen.getByRole("button", { name: "Copy address" })).toBeTruthy()
          },
          feedOff: async () => {
            expect(await screen.findByRole("button", { name: "Make a calendar feed" })).toBeTruthy()
            expect(screen.queryByLabelText(/^Feed address/)).toBeNull()
          },
          empty: async () => {
            expect(await screen.findByText(NO_REMINDERS)).toBeTruthy()
            expect(await screen.findByRole("button", { name: "Make a calendar feed" })).toBeTruthy()
          }
        },
        events: {
          "guide.open": async () => {
            let start = Date.now()
            await renderApp({
              signedIn: true,
              streams,
              path: async (server) => {
                start = await withGuide(server)
                return "/stream-schedule"
              }
            })
            // after 22:00 two hours from now is tomorrow: its day is chosen, as a viewer would
            if (new Date(start).toDateString() !== new Date().toDateString()) {
              const day = await screen.findByLabelText<HTMLSelectElement>("Day")
              await waitFor(() => expect(day.options.length).toBeGreaterThan(1))
              fireEvent.change(day, { target: { value: day.options[1]?.value } })
            }
          },
          "reminders.openEmpty": async () => {
            await renderApp({ signedIn: true, path: "/reminders" })
          },
          "reminder.ask": async () =>
            fireEvent.click(within(await tile()).getByRole("button", { name: `Remind me of ${TITLE} on Sports One` })),
          "reminder.cancel": () => click("button", "Cancel"),
          "reminder.set": async () => {
            fireEvent.click(await screen.findByRole("radio", { name: "30 minutes before" }))
            await click("button", "Set reminder")
            await waitFor(() => expect(screen.queryByRole("dialog", { name: "Remind me" })).toBeNull())
          },
          "reminder.removeOnGuide": async () =>
            fireEvent.click(within(await tile()).getByRole("button", { name: `Remove the reminder for ${TITLE}` })),
          "reminders.open": () => click("link", "your reminders"),
          "reminder.remove": async () =>
            fireEvent.click(within(await remindersList()).getByRole("button", { name: `Remove the reminder for ${TITLE}` })),
          "feed.make": () => click("button", "Make a calendar feed"),
          "feed.revoke": () => click("button", "Turn the feed off")
        }
      })
    })
  }

  it("covers every transition of the model", () => {
    expect(takenEvents(remindersPaths())).toEqual([
      "feed.make",
      "feed.revoke",
      "guide.open",
      "reminder.ask",
      "reminder.cancel",
      "reminder.remove",
      "reminder.removeOnGuide",
      "reminder.set",
      "reminders.open",
      "reminders.openEmpty"
    ])
  })
})
