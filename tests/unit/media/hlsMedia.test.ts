import type Hls from "hls.js"
import { describe, expect, it, vi } from "vitest"
import { levelClosestTo } from "../../../src/adapters/media/hlsMediaConfig.ts"
import { FakeHls } from "../../support/FakeHls.ts"
import { deps, FakeVideo, flush, hls, run } from "../../support/hlsMediaVideo.ts"

describe("createMediaActor: loading and playing", () => {
  it("plays with hls.js where MSE exists, and reports media facts", async () => {
    const { video, reported, command } = run(deps())
    expect(video.playsInline).toBe(true)
    command({ type: "media.load", source: "/live/demo1/index.m3u8" })
    await flush()
    expect(hls().source).toBe("/live/demo1/index.m3u8")
    expect(hls().attached).toBe(video)
    hls().parsed()
    expect(video.play).toHaveBeenCalled()
    for (const name of ["playing", "waiting", "pause", "ended", "volumechange"]) video.dispatchEvent(new Event(name))
    expect(reported()).toEqual([
      { type: "media.playing" },
      { type: "media.waiting" },
      { type: "media.paused" },
      { type: "media.ended" },
      { type: "media.volumeChanged" }
    ])
  })

  it("gives each player its settings: fast start for both, LL-HLS with catch-up for the low-latency one", async () => {
    const tv = run(deps(), { lowLatency: false })
    tv.command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    expect(hls().config).toMatchObject({ lowLatencyMode: false, startFragPrefetch: true, enableWorker: false, testBandwidth: false })
    const ll = run(deps(), { lowLatency: true })
    ll.command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    expect(hls().config).toMatchObject({ lowLatencyMode: true, startFragPrefetch: true })
    expect(hls().config.maxLiveSyncPlaybackRate).toBeGreaterThan(1)
    expect(hls().config.maxLiveSyncPlaybackRate).toBeLessThanOrEqual(1.5)
  })

  it("starts the low-latency player on the rendition closest to 1080p", async () => {
    const { command } = run(deps(), { lowLatency: true })
    command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    hls().parsed([360, 720, 1080, 1440])
    expect(hls().startLevel).toBe(2)
    expect(levelClosestTo([{ height: 720 }, { height: 1440 }], 1080)).toBe(1)
    expect(levelClosestTo([{ height: 480 }, { height: 720 }], 1080)).toBe(1)

    const tv = run(deps(), { lowLatency: false })
    tv.command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    hls().parsed([360, 1080])
    expect(hls().startLevel).toBe(-1)
  })

  it("falls back to muted autoplay when the browser refuses sound", async () => {
    const { video, reported, command } = run(deps())
    video.refuseSound = true
    command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    hls().parsed()
    await flush()
    expect(video.muted).toBe(true)
    expect(video.play).toHaveBeenCalledTimes(2)
    expect(reported()).toEqual([{ type: "media.autoMuted" }])
  })

  it("applies volume and mute, plays, pauses", async () => {
    const { video, command } = run(deps())
    command({ type: "media.volume", volume: 0.3, muted: true })
    expect([video.volume, video.muted]).toEqual([0.3, true])
    command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    command({ type: "media.pause" })
    command({ type: "media.play" })
    expect(video.pause).toHaveBeenCalledTimes(1)
    expect(video.play).toHaveBeenCalledTimes(1)
  })

  it("ignores everything a replaced instance still emits", async () => {
    const { video, reported, command } = run(deps())
    command({ type: "media.load", source: "/one.m3u8" })
    await flush()
    command({ type: "media.load", source: "/two.m3u8" })
    await flush()
    const [first, second] = FakeHls.instances
    expect(first?.destroyed).toBe(true)
    expect(second?.source).toBe("/two.m3u8")
    first?.emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError" })
    first?.parsed()
    expect(reported()).toEqual([])
    expect(video.play).not.toHaveBeenCalled()
    second?.emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError" })
    expect(reported()).toHaveLength(1)
  })

  it("does not create an instance for a load replaced before hls.js arrived", async () => {
    const { command } = run(deps())
    command({ type: "media.load", source: "/one.m3u8" })
    command({ type: "media.load", source: "/two.m3u8" })
    await flush()
    expect(FakeHls.instances.map((instance) => instance.source)).toEqual(["/two.m3u8"])
  })

  it("plays natively where MSE is missing, and where AirPlay wants the native source (TV player only)", async () => {
    const loadHls = vi.fn(async () => FakeHls as unknown as typeof Hls)
    const noMse = run(deps({ hasMse: () => false, loadHls }))
    noMse.command({ type: "media.load", source: "/native.m3u8" })
    await flush()
    expect(loadHls).not.toHaveBeenCalled()
    expect(noMse.video.src).toBe("/native.m3u8")
    expect(noMse.video.play).toHaveBeenCalled()

    const airPlay = deps({ loadHls, prefersNative: (lowLatency) => !lowLatency })
    run(airPlay, { lowLatency: false }).command({ type: "media.load", source: "/tv.m3u8" })
    await flush()
    expect(loadHls).not.toHaveBeenCalled()
    run(airPlay, { lowLatency: true }).command({ type: "media.load", source: "/ll.m3u8" })
    await flush()
    expect(loadHls).toHaveBeenCalledTimes(1)
  })

  it("destroys hls.js when stopped or when its parent goes away", async () => {
    const { parent, command } = run(deps())
    command({ type: "media.load", source: "/a.m3u8" })
    await flush()
    command({ type: "media.stop" })
    expect(hls(0).destroyed).toBe(true)
    command({ type: "media.load", source: "/b.m3u8" })
    await flush()
    parent.stop()
    expect(hls(1).destroyed).toBe(true)
  })

  it("reports the first frame once, when the frame callback says it was presented", async () => {
    const first = run(deps())
    first.video.dispatchEvent(new Event("playing"))
    first.video.dispatchEvent(new Event("playing"))
    expect(first.facts.filter((fact) => fact.type === "media.firstFrame")).toEqual([{ type: "media.firstFrame", ms: 1234 }])

    const callbacks: Array<(now: number, metadata: { presentationTime: number }) => void> = []
    const video = Object.assign(new FakeVideo(), {
      requestVideoFrameCallback: (callback: (typeof callbacks)[number]) => callbacks.push(callback),
      cancelVideoFrameCallback: vi.fn()
    })
    const second = run(deps(), { video })
    video.dispatchEvent(new Event("playing"))
    callbacks[0]?.(400, { presentationTime: 380.6 })
    expect(second.facts).toEqual([{ type: "media.firstFrame", ms: 381 }])
  })
})

describe("createMediaActor: our origin's stream grants", () => {
  it("reports a playlist the origin refused as such, and any other failure as before", async () => {
    const { reported, command } = run(deps())
    command({ type: "media.load", source: "/live/demo1/index.m3u8?grant=G" })
    await flush()
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "manifestLoadError", response: { code: 429, text: "" } })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "levelLoadError", response: { code: 410, text: "" } })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "fragLoadError", response: { code: 403, text: "" } })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "manifestLoadError", response: { code: 404, text: "" } })
    expect(reported().map((fact) => (fact.type === "media.refused" ? fact.status : fact.type))).toEqual([
      429,
      410,
      "media.fault",
      "media.fault"
    ])
  })

  it("reports a playlist our origin has not got right now (503: starting, or the signal lost) as unavailable, not as a fault", async () => {
    const { reported, command } = run(deps())
    command({ type: "media.load", source: "/live/relay3/index.m3u8?grant=G" })
    await flush()
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "manifestLoadError", response: { code: 503, text: "" } })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "levelLoadError", response: { code: 503, text: "" } })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "fragLoadError", response: { code: 503, text: "" } })
    expect(reported().map((fact) => fact.type)).toEqual(["media.unavailable", "media.unavailable", "media.fault"])
  })

  it("closes each source's stream as it stops playing here: replaced, stopped, or the page going away", async () => {
    const closeStream = vi.fn()
    const page = new EventTarget()
    const { parent, command } = run(deps({ closeStream, pageLifecycle: page }))
    command({ type: "media.load", source: "/one.m3u8?grant=A" })
    command({ type: "media.load", source: "/two.m3u8?grant=B" })
    expect(closeStream.mock.calls).toEqual([["/one.m3u8?grant=A"]])
    page.dispatchEvent(new Event("pagehide"))
    expect(closeStream.mock.calls.at(-1)).toEqual(["/two.m3u8?grant=B"])
    command({ type: "media.stop" })
    command({ type: "media.stop" })
    expect(closeStream).toHaveBeenCalledTimes(3)
    command({ type: "media.load", source: "/three.m3u8?grant=C" })
    parent.stop()
    expect(closeStream.mock.calls.at(-1)).toEqual(["/three.m3u8?grant=C"])
  })
})

describe("createMediaActor: how long each source takes to start", () => {
  it("reports each source's first picture once, timed from its load", async () => {
    let clock = 1000
    const { video, facts, command } = run(deps({ now: () => clock }))
    command({ type: "media.load", source: "/one.m3u8" })
    await flush()
    clock = 1750
    video.dispatchEvent(new Event("playing"))
    video.dispatchEvent(new Event("playing"))
    command({ type: "media.load", source: "/two.m3u8" })
    await flush()
    clock = 2100
    video.dispatchEvent(new Event("playing"))
    expect(facts.filter((fact) => fact.type === "media.started")).toEqual([
      { type: "media.started", ms: 750 },
      { type: "media.started", ms: 350 }
    ])
  })
})
