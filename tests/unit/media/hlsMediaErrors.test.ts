import { describe, expect, it } from "vitest"
import { FakeHls } from "../../support/FakeHls.ts"
import { deps, flush, hls, run } from "../../support/hlsMediaVideo.ts"

const loaded = async (overrides: Parameters<typeof deps>[0] = {}) => {
  const running = run(deps(overrides))
  running.command({ type: "media.load", source: "/a.m3u8" })
  await flush()
  return running
}

describe("createMediaActor: errors and recovery", () => {
  it("reports fatal hls.js errors as faults to recover from, and ignores the ones hls.js handles itself", async () => {
    const { reported } = await loaded()
    hls().emit(FakeHls.Events.ERROR, { fatal: false, type: "networkError", details: "fragLoadError" })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError", details: "manifestLoadError" })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "mediaError", details: "bufferAppendError" })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "mediaError", details: "manifestIncompatibleCodecsError" })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "otherError", details: "internalException" })
    expect(reported()).toEqual([
      { type: "media.fault", kind: "network", code: 2, message: "A network error occurred" },
      { type: "media.fault", kind: "media", code: 3, message: "Unable to decode media content" },
      { type: "media.failed", code: 4, message: "Unsupported media type" },
      { type: "media.failed", code: 0, message: "An unknown error occurred" }
    ])
  })

  it("says 'no internet' for a network error while offline", async () => {
    const { reported } = await loaded({ isOnline: () => false })
    hls().emit(FakeHls.Events.ERROR, { fatal: true, type: "networkError" })
    expect(reported()).toEqual([{ type: "media.fault", kind: "network", code: 1002, message: "No internet connection detected" }])
  })

  it("refuses an http source on an https page as mixed content", async () => {
    const { reported, command } = run(deps({ pageProtocol: () => "https:" }))
    command({ type: "media.load", source: "http://cdn.example/a.m3u8" })
    await flush()
    expect(FakeHls.instances).toEqual([])
    expect(reported()).toEqual([{ type: "media.failed", code: 1001, message: "Cannot load insecure content in a secure context" }])
  })

  it("recovers network errors by loading again, media errors with recoverMediaError (then swapping the audio codec)", async () => {
    const { command } = await loaded()
    command({ type: "media.recover", kind: "network" })
    hls().parsed()
    command({ type: "media.recover", kind: "network" })
    command({ type: "media.recover", kind: "media" })
    command({ type: "media.recover", kind: "media" })
    expect(hls().calls).toEqual([
      "loadSource /a.m3u8",
      // no manifest yet: ask for it again
      "loadSource /a.m3u8",
      "startLoad",
      "recoverMediaError",
      "swapAudioCodec",
      "recoverMediaError"
    ])
  })

  it("says the picture still runs when a reload beat the buffer running dry", async () => {
    const { video, reported, command } = await loaded()
    hls().parsed()
    video.paused = false
    video.readyState = 4
    command({ type: "media.recover", kind: "network" })
    expect(reported()).toEqual([{ type: "media.playing" }])
  })

  it("tries to fetch hls.js again when its chunk failed to load", async () => {
    let attempts = 0
    const { reported, command } = await loaded({
      loadHls: async () => {
        attempts += 1
        if (attempts === 1) throw new TypeError("Failed to fetch dynamically imported module")
        return FakeHls as never
      }
    })
    expect(reported()).toEqual([{ type: "media.fault", kind: "network", code: 2, message: "A network error occurred" }])
    command({ type: "media.recover", kind: "network" })
    await flush()
    expect(hls().source).toBe("/a.m3u8")
  })

  it("reports native element errors by their MediaError code", async () => {
    const { video, reported, command } = run(deps({ hasMse: () => false }))
    command({ type: "media.load", source: "/a.m3u8" })
    for (const code of [1, 2, 3, 4]) {
      video.error = { code }
      video.dispatchEvent(new Event("error"))
    }
    expect(
      reported().map((fact) =>
        fact.type === "media.fault" ? `fault ${fact.kind} ${fact.code}` : fact.type === "media.failed" ? `failed ${fact.code}` : fact.type
      )
    ).toEqual(["failed 1", "fault network 2", "fault media 3", "failed 4"])
  })
})

describe("createMediaActor: going offline and back online", () => {
  it("says 'no internet' as soon as the browser goes offline, stops the picture, and says when it is back", async () => {
    const network = new EventTarget()
    const { video, reported } = await loaded({ connectivity: network })
    hls().parsed()
    video.dispatchEvent(new Event("playing"))
    network.dispatchEvent(new Event("offline"))
    expect(video.pause).toHaveBeenCalledTimes(1)
    network.dispatchEvent(new Event("online"))
    expect(reported()).toEqual([
      { type: "media.playing" },
      { type: "media.failed", code: 1002, message: "No internet connection detected" },
      { type: "media.reconnected" }
    ])
  })

  it("listens only while a source is on: a replaced or stopped session says nothing", async () => {
    const network = new EventTarget()
    const { reported, command } = await loaded({ connectivity: network })
    command({ type: "media.load", source: "/b.m3u8" })
    await flush()
    network.dispatchEvent(new Event("offline"))
    expect(reported()).toEqual([{ type: "media.failed", code: 1002, message: "No internet connection detected" }])
    command({ type: "media.stop" })
    network.dispatchEvent(new Event("offline"))
    network.dispatchEvent(new Event("online"))
    expect(reported()).toHaveLength(1)
  })
})

describe("createMediaActor: where the playhead is", () => {
  it("answers a probe with the live window from the playlist and hls.js's latency", async () => {
    const { video, reported, command } = await loaded()
    command({ type: "media.probe" })
    hls().parsed()
    const level = hls().levels[0]
    if (level === undefined) throw new Error("a level")
    level.details = { live: true, edge: 130, fragmentStart: 118 }
    hls().currentLevel = 0
    hls().latency = 1.4
    video.currentTime = 128.6
    command({ type: "media.probe" })
    // nothing known before the first playlist: no answer rather than a made-up one
    expect(reported()).toEqual([{ type: "media.timing", currentTime: 128.6, start: 118, end: 130, live: true, latency: 1.4 }])
  })

  it("clamps seeks to the window, never past the live sync point, and goes back to live", async () => {
    const { video, command } = await loaded()
    hls().parsed()
    const level = hls().levels[0]
    if (level === undefined) throw new Error("a level")
    level.details = { live: true, edge: 130, fragmentStart: 118 }
    hls().liveSyncPosition = 126
    video.currentTime = 120
    command({ type: "media.seekTo", time: 100 })
    expect(video.currentTime).toBe(118)
    command({ type: "media.seekTo", time: 129 })
    expect(video.currentTime).toBe(126)
    command({ type: "media.seekTo", time: 122.5 })
    expect(video.currentTime).toBe(122.5)
    video.paused = true
    command({ type: "media.seekToLive" })
    expect(video.currentTime).toBe(126)
    expect(video.play).toHaveBeenCalled()
  })
})
