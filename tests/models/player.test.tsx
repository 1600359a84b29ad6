import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react"
import { MemoryRouter } from "react-router-dom"
import { afterEach, describe, expect, it } from "vitest"
import { fromCallback, fromPromise } from "xstate"
import { createVideoElement } from "../../src/adapters/videoElement.ts"
import type { ApiResult } from "../../src/domain/api.ts"
import { Stream } from "../../src/domain/Stream.ts"
import type { MediaCommand, MediaFact, MediaInput } from "../../src/machines/mediaProtocol.ts"
import { playerMachine } from "../../src/machines/playerMachine.ts"
import { playerVolumeMachine, type VolumeSetting } from "../../src/machines/playerVolumeMachine.ts"
import { PlayerView } from "../../src/ui/player/PlayerView.tsx"
import { ServicesContext, type Services } from "../../src/ui/ServicesContext.tsx"
import { createTestModel } from "xstate/graph"
import { playerModel } from "./player.model.ts"

const streams = [
  new Stream({ id: 1, title: "Sports One", src: "/live/1/index.m3u8", src_sldp: null, image_location: "/1.svg", tags: "", tags_sldp: "", maintenance_mode: false })
]

/**
 * A media actor that behaves like a video element as far as the controls can tell: play and
 * pause take effect at once; starting and failing are the test's to say.
 */
const fakeMedia = () => {
  let report: (fact: MediaFact) => void = () => {}
  const logic = fromCallback<MediaCommand, MediaInput>(({ sendBack, receive }) => {
    report = (fact) => act(() => sendBack(fact))
    receive((command) => {
      if (command.type === "media.play") queueMicrotask(() => sendBack({ type: "media.playing" }))
      if (command.type === "media.pause") queueMicrotask(() => sendBack({ type: "media.paused" }))
    })
  })
  return { logic, report: (fact: MediaFact) => report(fact) }
}

const renderPlayer = () => {
  const media = fakeMedia()
  const player = playerMachine.provide({
    actors: {
      loadStreams: fromPromise(async (): Promise<ApiResult<"streams"> | undefined> => ({ success: true, data: streams })),
      media: media.logic,
      volume: playerVolumeMachine.provide({ actors: { restoreVolume: fromPromise(async (): Promise<VolumeSetting> => ({ volume: 0.5, muted: false })) } })
    }
  })
  render(
    <ServicesContext value={{ player, placeVideo: createVideoElement } as unknown as Services}>
      <MemoryRouter initialEntries={["/player?default=0"]}>
        <PlayerView player={1} />
      </MemoryRouter>
    </ServicesContext>
  )
  return media
}

const bar = () => screen.getByRole("group", { name: "Player controls" })
const playButton = () => within(bar()).getByRole("button", { name: /^(Play|Pause)$/ })
const flush = () => act(async () => await new Promise((resolve) => setTimeout(resolve, 0)))

const model = createTestModel(playerModel)

describe("the player's controls, along every path of the model", () => {
  afterEach(cleanup)

  for (const path of model.getShortestPaths()) {
    it(path.description, async () => {
      const media = await (async () => {
        const started = renderPlayer()
        await screen.findByRole("group", { name: "Player controls" })
        await flush()
        return started
      })()
      await path.test({
        states: {
          "playback.loading": () => {
            expect(screen.getByRole("status", { name: "Loading stream" })).toBeTruthy()
            expect(screen.queryByRole("alert")).toBeNull()
          },
          "playback.playing": () => {
            expect(playButton().getAttribute("aria-label")).toBe("Pause")
            expect(screen.queryByRole("status", { name: "Loading stream" })).toBeNull()
            expect(screen.queryByRole("alert")).toBeNull()
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
          "sound.audible": () => {
            expect(within(bar()).getByRole("button", { name: "Mute" })).toBeTruthy()
            expect(within(bar()).getByRole("slider", { name: "Volume" }).getAttribute("aria-valuenow")).toBe("50")
          },
          "sound.muted": () => {
            expect(within(bar()).getByRole("button", { name: "Unmute" })).toBeTruthy()
            expect(within(bar()).getByRole("slider", { name: "Volume" }).getAttribute("aria-valuenow")).toBe("0")
          }
        },
        events: {
          "media.starts": () => media.report({ type: "media.playing" }),
          "media.fails": () => media.report({ type: "media.failed", code: 2, message: "A network error occurred" }),
          "user.pause": async () => {
            fireEvent.click(playButton())
            await flush()
          },
          "user.play": async () => {
            fireEvent.click(playButton())
            await flush()
          },
          "user.mute": () => void fireEvent.click(within(bar()).getByRole("button", { name: "Mute" })),
          "user.unmute": () => void fireEvent.click(within(bar()).getByRole("button", { name: "Unmute" })),
          "user.retry": () => void fireEvent.click(within(screen.getByRole("alert")).getByRole("button", { name: "Try again" }))
        }
      })
    })
  }

  it("takes every step of the model somewhere", () => {
    const taken = new Set(model.getShortestPaths().flatMap((path) => path.steps.map((step) => step.event.type)))
    expect([...taken].sort()).toEqual([
      "media.fails", "media.starts", "user.mute", "user.pause", "user.play", "user.retry", "user.unmute", "xstate.init"
    ])
  })
})
