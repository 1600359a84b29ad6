import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { DVR_MIN_WINDOW_S, LIVE_EDGE_TOLERANCE_S, LIVE_POLL_MS } from "../../../src/domain/PlayerLimits.ts"
import { playerChrome } from "../../../src/domain/PlayerUi.ts"
import { selectCanSeek, selectIsBehindLive, selectIsLive, selectLatencyMs } from "../../../src/machines/player/playerLiveEdgeMachine.ts"
import { shortcutFor } from "../../../src/machines/player/playerShortcuts.ts"
import { liveTiming, startPlayer } from "../../support/playerHarness.ts"

describe("playerMachine: the live edge", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it(`asks the media where the playhead is every ${LIVE_POLL_MS} ms`, async () => {
    const { media, attach } = await startPlayer()
    await attach()
    const probes = () => media.sent("media.probe").length
    expect(probes()).toBe(0)
    await vi.advanceTimersByTimeAsync(LIVE_POLL_MS - 1)
    expect(probes()).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(probes()).toBe(1)
    await vi.advanceTimersByTimeAsync(LIVE_POLL_MS * 4)
    expect(probes()).toBe(5)
  })

  it(`is at the live edge within ${LIVE_EDGE_TOLERANCE_S} s of it, and behind it beyond`, async () => {
    const { attach, send, child } = await startPlayer()
    await attach()
    send(liveTiming({ latency: LIVE_EDGE_TOLERANCE_S }))
    expect(selectIsLive(child("liveEdge"))).toBe(true)
    expect(selectIsBehindLive(child("liveEdge"))).toBe(false)
    send(liveTiming({ latency: LIVE_EDGE_TOLERANCE_S + 0.1 }))
    expect(selectIsBehindLive(child("liveEdge"))).toBe(true)
    expect(selectLatencyMs(child("liveEdge"))).toBe(10_100)
    // without the library's estimate the distance to the window's end counts
    send(liveTiming({ latency: null, currentTime: 100, end: 109 }))
    expect(selectIsBehindLive(child("liveEdge"))).toBe(false)
    expect(selectLatencyMs(child("liveEdge"))).toBe(9000)
  })

  it("goes back to live on request", async () => {
    const { media, attach, send } = await startPlayer()
    await attach()
    send(liveTiming({ latency: 30 }))
    send({ type: "player.goLive" })
    expect(media.sent("media.seekToLive")).toHaveLength(1)
  })

  it(`offers a seek bar only with a live window of at least ${DVR_MIN_WINDOW_S} s, and always for a VOD`, async () => {
    const { attach, send, child } = await startPlayer()
    await attach()
    send(liveTiming({ start: 0, end: DVR_MIN_WINDOW_S - 0.1 }))
    expect(selectCanSeek(child("liveEdge"))).toBe(false)
    send(liveTiming({ start: 0, end: DVR_MIN_WINDOW_S }))
    expect(selectCanSeek(child("liveEdge"))).toBe(true)
    send(liveTiming({ start: 0, end: 30, live: false, latency: null }))
    expect(selectCanSeek(child("liveEdge"))).toBe(true)
    expect(selectIsLive(child("liveEdge"))).toBe(false)
    expect(selectLatencyMs(child("liveEdge"))).toBeNull()
  })

  it("seeks 5 s with ← and → from where the playhead was last seen, and to a point on the seek bar", async () => {
    const { media, attach, send } = await startPlayer()
    await attach()
    const left = shortcutFor("ArrowLeft", playerChrome(0))
    const right = shortcutFor("ArrowRight", playerChrome(0))
    if (left === null || right === null) throw new Error("arrows are shortcuts")
    send(left)
    expect(media.sent("media.seekTo")).toEqual([])
    send(liveTiming({ currentTime: 50, start: 0, end: DVR_MIN_WINDOW_S + 10 }))
    send(left)
    send(right)
    send({ type: "player.seekTo", time: 12 })
    expect(media.sent("media.seekTo").map((command) => command.time)).toEqual([45, 55, 12])
  })

  it(`ignores keys, double taps and the seek bar on a live window shorter than ${DVR_MIN_WINDOW_S} s`, async () => {
    const { media, attach, send } = await startPlayer()
    await attach()
    send(liveTiming({ currentTime: 50, start: 0, end: DVR_MIN_WINDOW_S - 1 }))
    send({ type: "player.seekBy", seconds: -5 })
    send({ type: "controls.pointerMove", pointerType: "touch" })
    send({ type: "controls.tap", zone: "left" })
    send({ type: "controls.tap", zone: "left" })
    send({ type: "player.seekTo", time: 12 })
    expect(media.sent("media.seekTo")).toEqual([])
    // the window grew long enough: the same keys seek
    send(liveTiming({ currentTime: 50, start: 0, end: DVR_MIN_WINDOW_S }))
    send({ type: "player.seekBy", seconds: -5 })
    expect(media.sent("media.seekTo").map((command) => command.time)).toEqual([45])
  })

  it("always seeks in a VOD", async () => {
    const { media, attach, send } = await startPlayer()
    await attach()
    send(liveTiming({ currentTime: 20, start: 0, end: 30, live: false, latency: null }))
    send({ type: "player.seekBy", seconds: 5 })
    send({ type: "controls.pointerMove", pointerType: "touch" })
    send({ type: "controls.tap", zone: "left" })
    send({ type: "controls.tap", zone: "left" })
    expect(media.sent("media.seekTo").map((command) => command.time)).toEqual([25, 15])
  })
})

describe("keyboard shortcuts", () => {
  it("map keys to commands, leaving out what the UI flags hide", () => {
    expect([" ", "k", "m", "f", "ArrowUp", "ArrowDown", "x"].map((key) => shortcutFor(key, playerChrome(0)))).toEqual([
      { type: "player.togglePlay" },
      { type: "player.togglePlay" },
      { type: "volume.toggleMute" },
      { type: "screen.toggleFullscreen" },
      { type: "volume.step", by: 1 },
      { type: "volume.step", by: -1 },
      null
    ])
    // no fullscreen 1, no volume 2, no mute 4, no controls 1024
    expect(shortcutFor("f", playerChrome(1))).toBeNull()
    expect(shortcutFor("ArrowUp", playerChrome(2))).toBeNull()
    expect(shortcutFor("m", playerChrome(4))).toBeNull()
    expect(shortcutFor(" ", playerChrome(1024))).toBeNull()
  })
})
