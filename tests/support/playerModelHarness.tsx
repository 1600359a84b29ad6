import { act, render, screen, within } from "@testing-library/react"
import { MemoryRouter } from "react-router-dom"
import { vi } from "vitest"
import { createActor, fromCallback, fromPromise } from "xstate"
import { createVideoElement } from "../../src/adapters/media/videoElement.ts"
import { createFullscreenActor } from "../../src/adapters/screen/fullscreen.ts"
import { createPipActor } from "../../src/adapters/screen/pip.ts"
import type { CastCommand, CastInput } from "../../src/domain/CastProtocol.ts"
import { type Answer, answered } from "../../src/domain/contract/answer.ts"
import type { MediaCommand, MediaFact, MediaInput, MediaTiming } from "../../src/domain/MediaProtocol.ts"
import type { StartOverChoice } from "../../src/domain/StartOver.ts"
import { Stream } from "../../src/domain/Stream.ts"
import type { TelemetrySession } from "../../src/domain/TelemetryProtocol.ts"
import { playerGuideWindowMachine } from "../../src/machines/player/playerGuideWindowMachine.ts"
import { playerMachine } from "../../src/machines/player/playerMachine.ts"
import { playerStartOverMachine } from "../../src/machines/player/playerStartOverMachine.ts"
import { playerVolumeMachine, type VolumeSetting } from "../../src/machines/player/playerVolumeMachine.ts"
import { bootMachine } from "../../src/machines/shell/bootMachine.ts"
import { nowNextMachine } from "../../src/machines/streams/nowNextMachine.ts"
import { playerTelemetryMachine } from "../../src/machines/telemetry/playerTelemetryMachine.ts"
import { PlayerView } from "../../src/ui/player/PlayerView.tsx"
import { type Services, ServicesContext } from "../../src/ui/shared/ServicesContext.tsx"

export const streams = [
  new Stream({
    id: 1,
    title: "Sports One",
    src: "/live/1/index.m3u8",
    src_sldp: null,
    image_location: "/1.svg",
    tags: "",
    tags_sldp: "",
    maintenance_mode: false
  })
]

/** A live window of two minutes; the playhead 2 s behind its edge, or 30 s once it fell behind. */
const timingAt = (behind: boolean): MediaTiming => ({
  currentTime: behind ? 90 : 118,
  start: 0,
  end: 120,
  live: true,
  latency: behind ? 30 : 2
})

/**
 * A media actor that behaves like a video element as far as the controls can tell: play and
 * pause take effect at once, a probe answers where the playhead is, going to live (or loading
 * again) puts it back at the edge. Starting, failing and falling behind are the test's to say.
 */
export const fakeMedia = () => {
  let report: (fact: MediaFact) => void = () => {}
  let behind = false
  const logic = fromCallback<MediaCommand, MediaInput>(({ sendBack, receive }) => {
    report = (fact) => act(() => sendBack(fact))
    receive((command) => {
      if (command.type === "media.play") queueMicrotask(() => sendBack({ type: "media.playing" }))
      if (command.type === "media.pause") queueMicrotask(() => sendBack({ type: "media.paused" }))
      if (command.type === "media.seekToLive" || command.type === "media.load") behind = false
      if (command.type === "media.probe") sendBack({ type: "media.timing", ...timingAt(behind) })
    })
  })
  return {
    logic,
    report: (fact: MediaFact) => report(fact),
    fallBehind: () => {
      behind = true
    }
  }
}

/** Boot as it is before it starts: only the site settings it begins with, which the page title reads. */
const idleBoot = () => createActor(bootMachine, { input: { token: null } })

/** No cast device around, and telemetry that has no player token: neither is what these paths are about. */
const noCastDevice = fromCallback<CastCommand, CastInput>(() => () => undefined)
const noTelemetry = playerTelemetryMachine.provide({
  actors: {
    openSession: fromPromise(async (): Promise<TelemetrySession | null> => null),
    analytics: fromCallback(() => () => undefined),
    health: fromCallback(() => () => undefined),
    metering: fromCallback(() => () => undefined),
    timeSync: fromCallback(() => () => undefined)
  }
})

/** No guide either, on a clock that never ticks. */
const noGuide = nowNextMachine.provide({
  actors: {
    loadNowNext: fromPromise(async (): Promise<Answer<"nowNext">> => answered({ success: true, data: [] })),
    clock: fromCallback(() => () => undefined)
  }
})

interface RenderOptions {
  /** what airs now and next (by default nothing), on a clock read once */
  readonly guide?: Answer<"nowNext">
  /** the programmes of the time-shift window (by default none) */
  readonly window?: Answer<"guideWindow">
  /** another media actor than the one whose playhead is 2 s or 30 s behind live */
  readonly media?: { readonly logic: ReturnType<typeof fakeMedia>["logic"] }
}

/** The player page over the real machines, the real screen adapters and a fake media actor. */
export const renderPlayer = <M extends { readonly logic: ReturnType<typeof fakeMedia>["logic"] } = ReturnType<typeof fakeMedia>>(
  options: RenderOptions & { readonly media?: M } = {}
): M => {
  const media = (options.media ?? fakeMedia()) as M
  const guide =
    options.guide === undefined
      ? noGuide
      : nowNextMachine.provide({
          actors: {
            loadNowNext: fromPromise(async (): Promise<Answer<"nowNext">> => options.guide as Answer<"nowNext">),
            // read once, as the page opens
            clock: fromCallback(({ sendBack }) => {
              sendBack({ type: "clock.ticked", now: Date.now() })
              return () => undefined
            })
          }
        })
  const player = playerMachine.provide({
    actors: {
      loadStreams: fromPromise(async (): Promise<Answer<"streams">> => answered({ success: true, data: streams })),
      media: media.logic,
      fullscreen: createFullscreenActor(),
      pip: createPipActor(),
      cast: noCastDevice,
      telemetry: noTelemetry,
      nowNext: guide,
      volume: playerVolumeMachine.provide({
        actors: { restoreVolume: fromPromise(async (): Promise<VolumeSetting> => ({ volume: 0.5, muted: false })) }
      }),
      guideWindow: playerGuideWindowMachine.provide({
        actors: {
          loadWindow: fromPromise(
            async (): Promise<Answer<"guideWindow">> =>
              options.window ?? answered({ success: true, data: { from: "", to: "", programmes: [] } })
          )
        }
      }),
      startOver: playerStartOverMachine.provide({ actors: { recall: fromPromise(async (): Promise<StartOverChoice | null> => null) } })
    }
  })
  render(
    <ServicesContext
      value={
        {
          machines: new Map([[player.id, player]]),
          placeVideo: createVideoElement,
          actorOptions: {},
          boot: idleBoot()
        } as unknown as Services
      }
    >
      <MemoryRouter initialEntries={["/player?default=0"]}>
        <PlayerView player={1} />
      </MemoryRouter>
    </ServicesContext>
  )
  return media
}

/** Lets fake time pass, and everything it sets off settle, inside React's act. */
export const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)))

export const region = () => screen.getByRole("region", { name: "Video player" })
export const bar = () => screen.getByRole("group", { name: "Player controls" })
export const barButton = (name: string | RegExp) => within(bar()).getByRole("button", { name })
export const playButton = () => barButton(/^(Play|Pause)$/)
