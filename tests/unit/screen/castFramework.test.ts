// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest"
import { type AnyEventObject, createActor, setup } from "xstate"
import { createCastActor } from "../../../src/adapters/screen/cast.ts"
import {
  type CastFramework,
  type CastFrameworkState,
  type CastGlobals,
  castFrameworkOf
} from "../../../src/adapters/screen/castFramework.ts"
import type { CastCommand } from "../../../src/domain/CastProtocol.ts"

/** The Cast sender as the actor sees it: state changes on demand, a picker, what was played. */
const fakeFramework = () => {
  let listener: (state: CastFrameworkState) => void = () => undefined
  const played: Array<[string, string]> = []
  const framework: CastFramework = {
    watch: vi.fn((next) => {
      listener = next
      next({ available: false, connection: "disconnected" })
      return () => (listener = () => undefined)
    }),
    requestSession: vi.fn(async () => true),
    play: vi.fn(async (source: string, title: string) => void played.push([source, title]))
  }
  return { framework, played, change: (state: CastFrameworkState) => listener(state) }
}

class Video extends EventTarget {
  pause = vi.fn()
}

const run = (framework: CastFramework | null) => {
  const video = new Video()
  const facts: Array<AnyEventObject> = []
  const parent = createActor(
    setup({
      actors: { cast: createCastActor({ hasAirPlay: () => false, loadCastFramework: async () => framework, whenIdle: (work) => work() }) }
    }).createMachine({
      invoke: { id: "cast", src: "cast", input: { element: video as unknown as HTMLVideoElement } },
      on: { "*": { actions: ({ event }) => facts.push(event) } }
    })
  ).start()
  const send = (command: CastCommand) => parent.getSnapshot().children.cast?.send(command)
  return { parent, video, facts, send }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("casting through Google's Cast sender", () => {
  it("reports devices and the connection as the sender sees them", async () => {
    const fake = fakeFramework()
    const { facts } = run(fake.framework)
    await flush()
    fake.change({ available: true, connection: "disconnected" })
    fake.change({ available: true, connection: "connecting" })
    expect(facts).toEqual([
      { type: "cast.availability", target: "chromecast", available: false },
      { type: "cast.connection", target: "chromecast", state: "disconnected" },
      { type: "cast.availability", target: "chromecast", available: true },
      { type: "cast.connection", target: "chromecast", state: "disconnected" },
      { type: "cast.availability", target: "chromecast", available: true },
      { type: "cast.connection", target: "chromecast", state: "connecting" }
    ])
  })

  it("opens the sender's picker, sends the current stream once connected and pauses the picture here", async () => {
    const fake = fakeFramework()
    const { video, send } = run(fake.framework)
    await flush()
    send({ type: "cast.media", source: "/live/demo1/index.m3u8", title: "Demo Channel 1" })
    send({ type: "cast.showPicker", target: "chromecast" })
    expect(fake.framework.requestSession).toHaveBeenCalledOnce()
    expect(fake.played).toEqual([])
    fake.change({ available: true, connection: "connected" })
    expect(fake.played).toEqual([["http://localhost:3000/live/demo1/index.m3u8", "Demo Channel 1"]])
    expect(video.pause).toHaveBeenCalledOnce()
    // another stream chosen while casting goes to the device too
    send({ type: "cast.media", source: "/live/demo2/index.m3u8", title: "Demo Channel 2" })
    expect(fake.played.at(-1)).toEqual(["http://localhost:3000/live/demo2/index.m3u8", "Demo Channel 2"])
    fake.change({ available: true, connection: "connected" })
    expect(fake.played).toHaveLength(2)
  })

  it("stops listening to the sender when the player goes", async () => {
    const fake = fakeFramework()
    const { parent, facts } = run(fake.framework)
    await flush()
    parent.stop()
    const before = facts.length
    fake.change({ available: true, connection: "connected" })
    expect(facts).toHaveLength(before)
  })

  it("does without where the sender cannot be had", async () => {
    const { facts, send } = run(null)
    await flush()
    send({ type: "cast.showPicker", target: "chromecast" })
    expect(facts).toEqual([])
  })
})

describe("the sender behind the small interface", () => {
  const globals = () => {
    const listeners = new Map<string, (event: { castState: string }) => void>()
    const loaded: Array<unknown> = []
    let state = "NO_DEVICES_AVAILABLE"
    const context = {
      setOptions: vi.fn(),
      getCastState: () => state,
      addEventListener: (type: string, listener: (event: { castState: string }) => void) => listeners.set(type, listener),
      removeEventListener: (type: string) => listeners.delete(type),
      requestSession: vi.fn(async () => undefined),
      getCurrentSession: vi.fn(() => ({ loadMedia: async (request: unknown) => void loaded.push(request) }))
    }
    class MediaInfo {
      streamType = ""
      metadata: { title?: string } = {}
      readonly contentId: string
      readonly contentType: string
      constructor(contentId: string, contentType: string) {
        this.contentId = contentId
        this.contentType = contentType
      }
    }
    const cast = {
      framework: { CastContext: { getInstance: () => context }, CastContextEventType: { CAST_STATE_CHANGED: "caststatechanged" } }
    }
    const chrome = {
      cast: {
        AutoJoinPolicy: { ORIGIN_SCOPED: "origin_scoped" },
        media: {
          DEFAULT_MEDIA_RECEIVER_APP_ID: "CC1AD845",
          StreamType: { LIVE: "LIVE" },
          MediaInfo,
          GenericMediaMetadata: class {
            title?: string
          },
          LoadRequest: class {
            readonly media: MediaInfo
            constructor(media: MediaInfo) {
              this.media = media
            }
          }
        }
      }
    }
    return {
      globals: { cast, chrome } as unknown as CastGlobals,
      context,
      loaded,
      listeners,
      setState: (next: string) => {
        state = next
        listeners.get("caststatechanged")?.({ castState: next })
      }
    }
  }

  it("uses the default receiver, maps the sender's states, and loads a live HLS stream with its title", async () => {
    const fake = globals()
    const framework = castFrameworkOf(fake.globals)
    expect(fake.context.setOptions).toHaveBeenCalledWith({ receiverApplicationId: "CC1AD845", autoJoinPolicy: "origin_scoped" })
    const states: Array<CastFrameworkState> = []
    const stop = framework.watch((state) => states.push(state))
    fake.setState("NOT_CONNECTED")
    fake.setState("CONNECTING")
    fake.setState("CONNECTED")
    expect(states).toEqual([
      { available: false, connection: "disconnected" },
      { available: true, connection: "disconnected" },
      { available: true, connection: "connecting" },
      { available: true, connection: "connected" }
    ])
    stop()
    expect(fake.listeners.size).toBe(0)
    await expect(framework.requestSession()).resolves.toBe(true)
    await framework.play("https://tv.example/live/1.m3u8", "Sports 1")
    expect(fake.loaded).toEqual([
      {
        media: Object.assign(new fake.globals.chrome.cast.media.MediaInfo("https://tv.example/live/1.m3u8", "application/x-mpegurl"), {
          streamType: "LIVE",
          metadata: { title: "Sports 1" }
        })
      }
    ])
  })

  it("reports no session when the picker is dismissed", async () => {
    const fake = globals()
    fake.context.requestSession.mockRejectedValueOnce("cancel")
    await expect(castFrameworkOf(fake.globals).requestSession()).resolves.toBe(false)
  })
})
