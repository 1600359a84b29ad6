import { vi } from "vitest"
import { type AnyEventObject, createActor, fromCallback, fromPromise } from "xstate"
import { createMediaActor } from "../../src/adapters/media/hlsMedia.ts"
import { createClockActor } from "../../src/adapters/time/clock.ts"
import type { CastCommand, CastInput } from "../../src/domain/CastProtocol.ts"
import { type Answer, answered } from "../../src/domain/contract/answer.ts"
import type { MediaCommand, MediaFact, MediaInput, MediaTiming } from "../../src/domain/MediaProtocol.ts"
import type { FullscreenCommand, FullscreenInput, PipCommand, PipInput } from "../../src/domain/ScreenProtocol.ts"
import type { StartOverChoice, StartOverKey } from "../../src/domain/StartOver.ts"
import type { playerAccessMachine } from "../../src/machines/player/playerAccessMachine.ts"
import type { PlayerEvent } from "../../src/machines/player/playerEvents.ts"
import { playerGuideWindowMachine } from "../../src/machines/player/playerGuideWindowMachine.ts"
import { playerMachine } from "../../src/machines/player/playerMachine.ts"
import { playerStartOverMachine } from "../../src/machines/player/playerStartOverMachine.ts"
import { playerVolumeMachine, type VolumeSetting } from "../../src/machines/player/playerVolumeMachine.ts"
import { nowNextMachine } from "../../src/machines/streams/nowNextMachine.ts"
import type { playerTelemetryMachine } from "../../src/machines/telemetry/playerTelemetryMachine.ts"
import { FakeHls } from "./FakeHls.ts"
import { deps, FakeVideo } from "./hlsMediaVideo.ts"
import { answers, streams } from "./machineFixtures.ts"

/** A fake adapter: records what it is told, lets the test report facts as if it were the adapter. */
export const fakeAdapter = <TCommand extends AnyEventObject, TInput>() => {
  const commands: Array<TCommand> = []
  const inputs: Array<TInput> = []
  let report: (fact: AnyEventObject) => void = () => {}
  let stopped = 0
  const logic = fromCallback<TCommand, TInput>(({ input, receive, sendBack }) => {
    inputs.push(input)
    report = sendBack
    receive((command) => commands.push(command))
    return () => {
      stopped += 1
    }
  })
  return {
    logic,
    commands,
    inputs,
    report: (fact: AnyEventObject) => report(fact),
    stopped: () => stopped,
    /** commands of one type, in order */
    sent: <T extends TCommand["type"]>(type: T) =>
      commands.filter((command) => command.type === type) as Array<Extract<TCommand, { type: T }>>,
    clear: () => void commands.splice(0)
  }
}

export const element = { tagName: "VIDEO" } as unknown as HTMLVideoElement
export const container = { tagName: "DIV" } as unknown as HTMLElement

export const liveTiming = (overrides: Partial<MediaTiming> = {}): Extract<MediaFact, { type: "media.timing" }> => ({
  type: "media.timing",
  currentTime: 100,
  start: 88,
  end: 106,
  live: true,
  latency: 6,
  ...overrides
})

interface StartOptions {
  readonly player?: 1 | 2
  readonly index?: number
  readonly ui?: number
  readonly search?: string
  readonly stored?: VolumeSetting
  readonly loaded?: ReturnType<typeof answers<"streams">>
  readonly telemetry?: typeof playerTelemetryMachine
  /** what airs now and next; by default a guide with nothing on it */
  readonly nowNext?: typeof nowNextMachine
  /** what the server says of a refused stream grant */
  readonly access?: typeof playerAccessMachine
  /** another media adapter than the fake that records commands, and the video it plays on */
  readonly media?: { readonly logic: ReturnType<typeof createMediaActor>; readonly video: HTMLVideoElement }
  /** the programmes of a stream's time-shift window; by default none */
  readonly guideWindow?: typeof playerGuideWindowMachine
  /** what was answered before for a programme; by default nothing */
  readonly recalled?: StartOverChoice | null
  /** `?stream=`, `?from=` and the site's window */
  readonly streamId?: number
  readonly startAt?: number
  readonly timeshiftHours?: number
}

/** The real media adapter driving FakeHls on a FakeVideo; `network` announces offline/online. */
const hlsMedia = () => {
  FakeHls.instances = []
  const video = new FakeVideo()
  const network = new EventTarget()
  const logic = createMediaActor(deps({ connectivity: network }))
  const hls = (): FakeHls => {
    const instance = FakeHls.instances.at(-1)
    if (instance === undefined) throw new Error("no hls.js instance yet")
    return instance
  }
  return { logic, video, network, hls }
}

/** The player machine with every adapter faked, optionally already attached to a video. */
export const startPlayer = async ({
  player = 1,
  index = 2,
  ui,
  search,
  stored = { volume: 1, muted: false },
  loaded,
  telemetry,
  nowNext,
  access,
  media: real,
  guideWindow,
  recalled = null,
  streamId,
  startAt,
  timeshiftHours
}: StartOptions = {}) => {
  const media = fakeAdapter<MediaCommand, MediaInput>()
  const fullscreen = fakeAdapter<FullscreenCommand, FullscreenInput>()
  const pip = fakeAdapter<PipCommand, PipInput>()
  const cast = fakeAdapter<CastCommand, CastInput>()
  const navigate = vi.fn()
  const persistVolume = vi.fn()
  const remembered: Array<{ readonly key: StartOverKey; readonly choice: StartOverChoice }> = []
  const recalls: Array<StartOverKey> = []
  const actor = createActor(
    playerMachine.provide({
      actors: {
        loadStreams: loaded ?? answers("streams", answered({ success: true, data: streams })),
        media: real?.logic ?? media.logic,
        fullscreen: fullscreen.logic,
        pip: pip.logic,
        cast: cast.logic,
        ...(telemetry === undefined ? {} : { telemetry }),
        ...(access === undefined ? {} : { access }),
        nowNext:
          nowNext ??
          nowNextMachine.provide({
            actors: { loadNowNext: answers("nowNext", answered({ success: true, data: [] })), clock: createClockActor() }
          }),
        volume: playerVolumeMachine.provide({
          actors: { restoreVolume: fromPromise(async () => stored) },
          actions: { persistVolume: (_, setting) => persistVolume(setting) }
        }),
        guideWindow:
          guideWindow ??
          playerGuideWindowMachine.provide({
            actors: {
              loadWindow: fromPromise(
                async (): Promise<Answer<"guideWindow">> => answered({ success: true, data: { from: "", to: "", programmes: [] } })
              )
            }
          }),
        startOver: playerStartOverMachine.provide({
          actors: {
            recall: fromPromise(async ({ input }: { readonly input: StartOverKey }) => {
              recalls.push(input)
              return recalled
            })
          },
          actions: { remember: (_, answer) => void remembered.push(answer) }
        })
      },
      actions: { navigate }
    }),
    {
      input: {
        player,
        index,
        ...(ui === undefined ? {} : { ui }),
        ...(search === undefined ? {} : { search }),
        ...(streamId === undefined ? {} : { streamId }),
        ...(startAt === undefined ? {} : { startAt }),
        ...(timeshiftHours === undefined ? {} : { timeshiftHours })
      }
    }
  ).start()
  await vi.advanceTimersByTimeAsync(0)
  const send = (event: PlayerEvent) => actor.send(event)
  const attach = async () => {
    send({ type: "media.attach", element: real?.video ?? element, container })
    await vi.advanceTimersByTimeAsync(0)
  }
  const child = <
    K extends "playback" | "controls" | "volume" | "liveEdge" | "screen" | "casting" | "telemetry" | "access" | "startOver" | "guideWindow"
  >(
    id: K
  ) => {
    const ref = actor.getSnapshot().children[id]
    if (ref === undefined) throw new Error(`no ${id} child: is the video attached?`)
    return ref.getSnapshot() as NonNullable<ReturnType<typeof actor.getSnapshot>["children"][K]> extends { getSnapshot: () => infer S }
      ? S
      : never
  }
  return { actor, media, fullscreen, pip, cast, navigate, persistVolume, remembered, recalls, send, attach, child }
}

/** The player machine over the real media adapter, hls.js faked by FakeHls, the video by FakeVideo. */
export const startHlsPlayer = async (options: Omit<StartOptions, "media"> = {}) => {
  const real = hlsMedia()
  const started = await startPlayer({ ...options, media: { logic: real.logic, video: real.video as unknown as HTMLVideoElement } })
  return { ...started, video: real.video, network: real.network, hls: real.hls }
}
