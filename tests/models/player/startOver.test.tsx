import { act, cleanup, fireEvent, screen, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { fromCallback } from "xstate"
import { answered } from "../../../src/domain/contract/answer.ts"
import type { MediaCommand, MediaFact, MediaInput } from "../../../src/domain/MediaProtocol.ts"
import { CATCH_UP_RATE, LIVE_POLL_MS } from "../../../src/domain/PlayerLimits.ts"
import type { EpgEntry } from "../../../src/domain/Schedule.ts"
import { spanText, wallClock } from "../../../src/ui/player/dvrFormat.ts"
import { advance, bar, barButton, renderPlayer, streams } from "../../support/playerModelHarness.tsx"
import { startOverPaths } from "./startOver.model.ts"

const paths = startOverPaths()

const NOW = Date.parse("2030-03-01T20:00:00.000Z")
const MINUTE = 60_000
const WINDOW_S = 4 * 3600
/** Media time 0 is the window's start, four hours before now. */
const EPOCH = NOW - WINDOW_S * 1000
/** hls.js plays this far behind the newest segment. */
const LIVE_SYNC_S = 6
const programme = (from: number, to: number, title: string): EpgEntry => ({
  StartTime: new Date(NOW + from * MINUTE).toISOString(),
  EndTime: new Date(NOW + to * MINUTE).toISOString(),
  Title: title,
  Subtitle: ""
})
const news = programme(-90, -45, "News")
const final = programme(-45, 75, "Cup Final")
const FINAL_START = Date.parse(final.StartTime)
const NEWS_START = Date.parse(news.StartTime)

/**
 * A media actor with a four-hour window whose dates map media time 0 to EPOCH: seeks move the
 * playhead at once, going live puts it six seconds behind the edge, the rate is kept.
 */
const dvrMedia = () => {
  let report: (fact: MediaFact) => void = () => {}
  let currentTime = WINDOW_S - LIVE_SYNC_S
  let rate = 1
  const logic = fromCallback<MediaCommand, MediaInput>(({ sendBack, receive }) => {
    report = (fact) => act(() => sendBack(fact))
    queueMicrotask(() => sendBack({ type: "media.playing" }))
    receive((command) => {
      if (command.type === "media.seekTo") currentTime = Math.min(Math.max(command.time, 0), WINDOW_S - LIVE_SYNC_S)
      if (command.type === "media.seekToLive") currentTime = WINDOW_S - LIVE_SYNC_S
      if (command.type === "media.rate") rate = command.rate
      if (command.type === "media.probe") {
        sendBack({ type: "media.timing", currentTime, start: 0, end: WINDOW_S, live: true, latency: WINDOW_S - currentTime, epoch: EPOCH })
      }
    })
  })
  return {
    logic,
    report: (fact: MediaFact) => report(fact),
    moment: () => EPOCH + currentTime * 1000,
    rate: () => rate,
    playOn: (seconds: number) => {
      currentTime += seconds
    },
    reachLive: () => {
      currentTime = WINDOW_S - LIVE_SYNC_S
    }
  }
}

const question = () => screen.queryByRole("dialog", { name: /^Start from the beginning \(kick-off \d\d:\d\d\) or watch live\?$/ })
const seekText = () => within(bar()).getByRole("slider", { name: "Seek" }).getAttribute("aria-valuetext")
const expectAt = (at: number, title: string) => expect(seekText()).toBe(`${wallClock(at)} · ${spanText(NOW - at)} behind live, ${title}`)

describe("arriving late and moving about the window, along every path of the model", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] })
    vi.setSystemTime(NOW)
  })
  afterEach(() => {
    cleanup()
    vi.useRealTimers()
  })

  for (const path of paths) {
    it(path.description, async () => {
      const media = dvrMedia()
      renderPlayer({
        media,
        guide: answered({ success: true, data: [{ streamId: streams[0]?.id ?? 0, now: final, next: null }] }),
        window: answered({
          success: true,
          data: { from: new Date(EPOCH).toISOString(), to: new Date(NOW).toISOString(), programmes: [news, final] }
        })
      })
      await advance(0)
      await act(async () => void (await vi.dynamicImportSettled()))
      await advance(LIVE_POLL_MS)

      await path.test({
        states: {
          asked: () => {
            const dialog = question()
            expect(dialog).not.toBeNull()
            expect(dialog?.textContent).toContain(`Cup Final began at ${wallClock(FINAL_START)}, 45 min ago.`)
            expect(
              within(dialog as HTMLElement).getByRole("button", { name: `From the beginning (${wallClock(FINAL_START)})` })
            ).toBeTruthy()
            expect(within(bar()).getByText("LIVE")).toBeTruthy()
          },
          live: () => {
            expect(question()).toBeNull()
            expect(within(bar()).getByText("LIVE")).toBeTruthy()
            expect(within(bar()).getByText(wallClock(media.moment()))).toBeTruthy()
            expect(within(bar()).queryByRole("button", { name: "Catch up" })).toBeNull()
            expect(media.rate()).toBe(1)
          },
          atProgrammeStart: () => {
            expect(question()).toBeNull()
            expect(media.moment()).toBe(FINAL_START)
            expectAt(FINAL_START, "Cup Final")
            expect(barButton("Go to live")).toBeTruthy()
            expect(barButton("Catch up").getAttribute("aria-pressed")).toBe("false")
            expect(media.rate()).toBe(1)
          },
          atPreviousProgramme: () => {
            expect(media.moment()).toBe(NEWS_START)
            expectAt(NEWS_START, "News")
          },
          intoProgramme: () => {
            expectAt(FINAL_START + 10 * MINUTE, "Cup Final")
            expect(barButton("Start of programme").getAttribute("title")).toBe(`Start of programme (${wallClock(FINAL_START)})`)
          },
          catchingUp: () => {
            expect(barButton("Catch up").getAttribute("aria-pressed")).toBe("true")
            expect(media.rate()).toBe(CATCH_UP_RATE)
          }
        },
        events: {
          "user.fromBeginning": async () => {
            fireEvent.click(screen.getByRole("button", { name: /^From the beginning/ }))
            await advance(LIVE_POLL_MS)
          },
          "user.watchLive": async () => {
            fireEvent.click(screen.getByRole("button", { name: "Watch live" }))
            await advance(LIVE_POLL_MS)
          },
          "user.escape": async () => {
            fireEvent.keyDown(screen.getByRole("button", { name: "Watch live" }), { key: "Escape" })
            await advance(LIVE_POLL_MS)
          },
          "user.clickProgramme": async () => {
            fireEvent.click(within(bar()).getByRole("button", { name: `Play Cup Final, from ${wallClock(FINAL_START)}` }))
            await advance(LIVE_POLL_MS)
          },
          "user.previousProgramme": async () => {
            fireEvent.keyDown(within(bar()).getByRole("slider", { name: "Seek" }), { key: "PageUp" })
            await advance(LIVE_POLL_MS)
          },
          "user.nextProgramme": async () => {
            fireEvent.keyDown(within(bar()).getByRole("slider", { name: "Seek" }), { key: "PageDown" })
            await advance(LIVE_POLL_MS)
          },
          "media.playsOn": async () => {
            media.playOn(600)
            await advance(LIVE_POLL_MS)
          },
          "user.startOfProgramme": async () => {
            fireEvent.click(barButton("Start of programme"))
            await advance(LIVE_POLL_MS)
          },
          "user.catchUp": async () => {
            fireEvent.click(barButton("Catch up"))
            await advance(0)
          },
          "media.reachesLive": async () => {
            media.reachLive()
            await advance(LIVE_POLL_MS)
          },
          "user.goLive": async () => {
            fireEvent.click(barButton("Go to live"))
            await advance(LIVE_POLL_MS)
          }
        }
      })
    })
  }

  it("keeps to a readable number of paths and takes every step of the model somewhere", () => {
    expect(paths.length).toBeLessThan(20)
    const taken = new Set(paths.flatMap((path) => path.steps.map((step) => step.event.type)))
    expect([...taken].sort()).toEqual([
      "media.playsOn",
      "media.reachesLive",
      "user.catchUp",
      "user.clickProgramme",
      "user.escape",
      "user.fromBeginning",
      "user.goLive",
      "user.nextProgramme",
      "user.previousProgramme",
      "user.startOfProgramme",
      "user.watchLive",
      "xstate.init"
    ])
  })
})
