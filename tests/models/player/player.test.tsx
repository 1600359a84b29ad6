import { cleanup, fireEvent, screen, within } from "@testing-library/react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { CONTROLS_HIDE_MS, LIVE_POLL_MS } from "../../../src/domain/PlayerLimits.ts"
import { fakeFullscreen } from "../../support/fakeFullscreen.ts"
import { advance, bar, barButton, playButton, region, renderPlayer } from "../../support/playerModelHarness.tsx"
import { playerPaths } from "./player.model.ts"

const paths = playerPaths()

const expectNoError = () => expect(screen.queryByRole("alert")).toBeNull()

describe("the player's controls, along every path of the model", () => {
  let removeFullscreen: () => void = () => {}
  beforeEach(() => {
    // the control bar's 2 s and the live-edge poll run on a clock the steps move on
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] })
    removeFullscreen = fakeFullscreen()
  })
  afterEach(() => {
    cleanup()
    removeFullscreen()
    vi.useRealTimers()
  })

  for (const path of paths) {
    it(path.description, async () => {
      const media = renderPlayer()
      await advance(0)
      expect(bar()).toBeTruthy()
      // the first probe of the live edge
      await advance(LIVE_POLL_MS)

      await path.test({
        states: {
          "playback.loading": () => {
            expect(screen.getByRole("status", { name: "Loading stream" })).toBeTruthy()
            expectNoError()
          },
          "playback.playing": () => {
            expect(playButton().getAttribute("aria-label")).toBe("Pause")
            expect(playButton().hasAttribute("disabled")).toBe(false)
            expect(screen.queryByRole("status", { name: "Loading stream" })).toBeNull()
            expectNoError()
          },
          "playback.paused": () => {
            expect(playButton().getAttribute("aria-label")).toBe("Play")
            expect(screen.getByRole("button", { name: "Play video" })).toBeTruthy()
          },
          "playback.failed": () => {
            const alert = screen.getByRole("alert")
            expect(within(alert).getByText("A network error occurred")).toBeTruthy()
            expect(within(alert).getByText("Error code 2")).toBeTruthy()
            expect(playButton().hasAttribute("disabled")).toBe(true)
          },
          "bar.shown": () => {
            expect(region().dataset.controls).toBe("shown")
            expect(bar().dataset.shown).toBe("true")
          },
          "bar.hidden": () => {
            expect(region().dataset.controls).toBe("hidden")
            expect(bar().dataset.shown).toBe("false")
          },
          "sound.audible": () => {
            expect(barButton("Mute")).toBeTruthy()
            expect(within(bar()).getByRole("slider", { name: "Volume" }).getAttribute("aria-valuenow")).toBe("50")
          },
          "sound.muted": () => {
            expect(barButton("Unmute")).toBeTruthy()
            expect(within(bar()).getByRole("slider", { name: "Volume" }).getAttribute("aria-valuenow")).toBe("0")
          },
          "screen.normal": () => {
            expect(barButton("Fullscreen")).toBeTruthy()
            expect(within(region()).queryByText("Sports One")).toBeNull()
          },
          "screen.fullscreen": () => {
            expect(barButton("Exit fullscreen")).toBeTruthy()
            expect(within(region()).getByText("Sports One")).toBeTruthy()
          },
          "live.atEdge": () => {
            expect(within(bar()).getByText("LIVE")).toBeTruthy()
            expect(within(bar()).queryByRole("button", { name: "Go to live" })).toBeNull()
          },
          "live.behind": () => {
            expect(barButton("Go to live")).toBeTruthy()
            expect(within(bar()).queryByText("LIVE")).toBeNull()
          }
        },
        events: {
          "media.starts": () => media.report({ type: "media.playing" }),
          "media.fails": () => media.report({ type: "media.failed", code: 2, message: "A network error occurred" }),
          "media.fallsBehind": async () => {
            media.fallBehind()
            await advance(LIVE_POLL_MS)
          },
          "user.pause": async () => {
            fireEvent.click(playButton())
            await advance(0)
          },
          "user.play": async () => {
            fireEvent.click(playButton())
            await advance(0)
          },
          "user.leaves": async () => {
            fireEvent.pointerLeave(region())
            await advance(CONTROLS_HIDE_MS)
          },
          "user.hovers": () => void fireEvent.pointerMove(region()),
          "user.mute": () => void fireEvent.click(barButton("Mute")),
          "user.unmute": () => void fireEvent.click(barButton("Unmute")),
          "user.enterFullscreen": async () => {
            fireEvent.click(barButton("Fullscreen"))
            await advance(0)
          },
          "user.exitFullscreen": async () => {
            fireEvent.click(barButton("Exit fullscreen"))
            await advance(0)
          },
          "user.goLive": async () => {
            fireEvent.click(barButton("Go to live"))
            await advance(LIVE_POLL_MS)
          },
          "user.retry": async () => {
            fireEvent.click(within(screen.getByRole("alert")).getByRole("button", { name: "Try again" }))
            await advance(LIVE_POLL_MS)
          },
          "user.reselect": async () => {
            fireEvent.click(within(screen.getByRole("complementary", { name: "Streams" })).getByRole("button", { name: /^Sports One/ }))
            await advance(LIVE_POLL_MS)
          }
        }
      })
    })
  }

  it("keeps to a readable number of paths and takes every step of the model somewhere", () => {
    expect(paths.length).toBeLessThan(60)
    const taken = new Set(paths.flatMap((path) => path.steps.map((step) => step.event.type)))
    expect([...taken].sort()).toEqual([
      "media.fails",
      "media.fallsBehind",
      "media.starts",
      "user.enterFullscreen",
      "user.exitFullscreen",
      "user.goLive",
      "user.hovers",
      "user.leaves",
      "user.mute",
      "user.pause",
      "user.play",
      "user.reselect",
      "user.retry",
      "user.unmute",
      "xstate.init"
    ])
  })
})
