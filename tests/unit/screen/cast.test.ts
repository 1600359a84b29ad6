import { describe, expect, it, vi } from "vitest"
import { type AnyEventObject, createActor, setup } from "xstate"
import { type CastDeps, createCastActor } from "../../../src/adapters/screen/cast.ts"

class FakeRemote extends EventTarget {
  callback: ((available: boolean) => void) | undefined
  watchAvailability = vi.fn(async (callback: (available: boolean) => void) => {
    this.callback = callback
    return 7
  })
  cancelWatchAvailability = vi.fn(async () => undefined)
  prompt = vi.fn(async () => undefined)
}

class FakeAirPlayVideo extends EventTarget {
  webkitCurrentPlaybackTargetIsWireless = false
  webkitShowPlaybackTargetPicker = vi.fn()
  remote = new FakeRemote()
}

const run = (video: EventTarget, deps: CastDeps, canCast?: boolean) => {
  const facts: Array<AnyEventObject> = []
  const parent = createActor(
    setup({ actors: { cast: createCastActor(deps) } }).createMachine({
      invoke: {
        id: "cast",
        src: "cast",
        input: { element: video as unknown as HTMLVideoElement, ...(canCast === undefined ? {} : { canCast }) }
      },
      on: { "*": { actions: ({ event }) => facts.push(event) } }
    })
  ).start()
  const cast = () => parent.getSnapshot().children.cast
  return { parent, facts, showPicker: (target: "airplay" | "chromecast") => cast()?.send({ type: "cast.showPicker", target }) }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("createCastActor", () => {
  it("reports AirPlay availability and connection from Safari's events, and opens its picker", () => {
    const video = new FakeAirPlayVideo()
    const { facts, showPicker } = run(video, { hasAirPlay: () => true })
    video.dispatchEvent(Object.assign(new Event("webkitplaybacktargetavailabilitychanged"), { availability: "available" }))
    video.webkitCurrentPlaybackTargetIsWireless = true
    video.dispatchEvent(new Event("webkitcurrentplaybacktargetiswirelesschanged"))
    showPicker("airplay")
    expect(facts).toContainEqual({ type: "cast.availability", target: "airplay", available: true })
    expect(facts).toContainEqual({ type: "cast.connection", target: "airplay", state: "connected" })
    expect(video.webkitShowPlaybackTargetPicker).toHaveBeenCalledTimes(1)
  })

  it("knows nothing of AirPlay where the browser does not offer it", () => {
    const video = new FakeAirPlayVideo()
    const { facts } = run(video, { hasAirPlay: () => false })
    video.dispatchEvent(Object.assign(new Event("webkitplaybacktargetavailabilitychanged"), { availability: "available" }))
    expect(facts.filter((fact) => fact.target === "airplay")).toEqual([])
  })

  it("watches Remote Playback availability for Chromecast, prompts, follows the connection, and stops watching", async () => {
    const video = new FakeAirPlayVideo()
    const { parent, facts, showPicker } = run(video, { hasAirPlay: () => false })
    await flush()
    video.remote.callback?.(true)
    showPicker("chromecast")
    video.remote.dispatchEvent(new Event("connecting"))
    video.remote.dispatchEvent(new Event("connect"))
    expect(facts).toEqual([
      { type: "cast.availability", target: "chromecast", available: true },
      { type: "cast.connection", target: "chromecast", state: "connecting" },
      { type: "cast.connection", target: "chromecast", state: "connected" }
    ])
    expect(video.remote.prompt).toHaveBeenCalledTimes(1)
    parent.stop()
    expect(video.remote.cancelWatchAvailability).toHaveBeenCalledWith(7)
  })

  it("stays quiet where the source cannot be sent to a device", async () => {
    const video = new FakeAirPlayVideo()
    video.remote.watchAvailability = vi.fn(async () => {
      throw new DOMException("MSE", "NotSupportedError")
    })
    const { facts } = run(video, { hasAirPlay: () => false })
    await flush()
    expect(facts).toEqual([])
  })

  it("asks nothing of the browser for a player that cannot cast: no sender script, no device watching, no picker", async () => {
    const video = new FakeAirPlayVideo()
    const loadCastFramework = vi.fn(async () => null)
    const { facts, showPicker } = run(video, { hasAirPlay: () => true, loadCastFramework }, false)
    await flush()
    video.dispatchEvent(Object.assign(new Event("webkitplaybacktargetavailabilitychanged"), { availability: "available" }))
    showPicker("chromecast")
    showPicker("airplay")
    expect(loadCastFramework).not.toHaveBeenCalled()
    expect(video.remote.watchAvailability).not.toHaveBeenCalled()
    expect(video.remote.prompt).not.toHaveBeenCalled()
    expect(video.webkitShowPlaybackTargetPicker).not.toHaveBeenCalled()
    expect(facts).toEqual([])
  })

  it("loads the sender for a player that can cast", async () => {
    const loadCastFramework = vi.fn(async () => null)
    run(new FakeAirPlayVideo(), { hasAirPlay: () => false, loadCastFramework }, true)
    await flush()
    expect(loadCastFramework).toHaveBeenCalledTimes(1)
  })
})
