import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MediaErrorCode, mediaErrorMessage } from "../../../src/domain/MediaError.ts"
import {
  selectCanTogglePlay,
  selectFirstFrameMs,
  selectIsEnded,
  selectIsPlaying,
  selectIsRecovering,
  selectPlaybackError
} from "../../../src/machines/player/playerPlaybackMachine.ts"
import { PLAYER_TUNING } from "../../../src/machines/player/playerTuning.ts"
import { startHlsPlayer, startPlayer } from "../../support/playerHarness.ts"

const networkFault = { type: "media.fault", kind: "network", code: 2, message: "A network error occurred" } as const

describe("playerMachine: playback and its errors", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("plays and pauses through the media adapter; the state follows what the media reports", async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "media.playing" })
    send({ type: "player.togglePlay" })
    expect(media.sent("media.pause")).toHaveLength(1)
    expect(selectIsPlaying(child("playback"))).toBe(true)
    send({ type: "media.paused" })
    send({ type: "player.togglePlay" })
    expect(media.sent("media.play")).toHaveLength(1)
  })

  it(`retries a fatal error ${PLAYER_TUNING.recoveryAttempts} times, each after twice the pause, before the error box`, async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    const delays = [500, 1000, 2000]
    for (const [attempt, delay] of delays.entries()) {
      send(networkFault)
      expect(selectIsRecovering(child("playback"))).toBe(true)
      expect(selectPlaybackError(child("playback"))).toBeNull()
      await vi.advanceTimersByTimeAsync(delay - 1)
      expect(media.sent("media.recover")).toHaveLength(attempt)
      await vi.advanceTimersByTimeAsync(1)
      expect(media.sent("media.recover")).toHaveLength(attempt + 1)
      expect(media.sent("media.recover").at(-1)).toEqual({ type: "media.recover", kind: "network" })
    }
    send(networkFault)
    expect(selectPlaybackError(child("playback"))).toEqual({ code: 2, message: "A network error occurred" })
    expect(media.sent("media.recover")).toHaveLength(3)
  })

  it("starts counting again once playback runs, and asks hls.js to recover media errors as media errors", async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    for (let round = 0; round < 2; round += 1) {
      send(networkFault)
      send(networkFault)
      await vi.advanceTimersByTimeAsync(500)
      send({ type: "media.playing" })
    }
    send({ type: "media.fault", kind: "media", code: 3, message: mediaErrorMessage(3) })
    await vi.advanceTimersByTimeAsync(500)
    expect(media.sent("media.recover").map((command) => command.kind)).toEqual(["network", "network", "media"])
    expect(selectPlaybackError(child("playback"))).toBeNull()
  })

  it("disables play toggling under the error box and undoes both when playback starts again", async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "media.failed", code: MediaErrorCode.MIXED_CONTENT, message: mediaErrorMessage(MediaErrorCode.MIXED_CONTENT) })
    expect(selectPlaybackError(child("playback"))).toEqual({ code: 1001, message: "Cannot load insecure content in a secure context" })
    expect(selectCanTogglePlay(child("playback"))).toBe(false)
    send({ type: "player.togglePlay" })
    expect(media.sent("media.play")).toEqual([])
    expect(media.sent("media.pause")).toEqual([])

    send({ type: "player.retry" })
    expect(selectPlaybackError(child("playback"))).toBeNull()
    expect(media.sent("media.load")).toHaveLength(2)
    send({ type: "media.playing" })
    expect(selectCanTogglePlay(child("playback"))).toBe(true)
  })

  it("clears the error box when the viewer chooses the same stream again", async () => {
    const { media, attach, send, child } = await startPlayer({ index: 2 })
    await attach()
    send({ type: "media.failed", code: 4, message: mediaErrorMessage(4) })
    send({ type: "player.select", index: 2 })
    expect(selectPlaybackError(child("playback"))).toBeNull()
    expect(media.sent("media.load")).toHaveLength(2)
  })

  it("clears the error box when the viewer chooses another stream", async () => {
    const { attach, send, child } = await startPlayer({ index: 2 })
    await attach()
    send({ type: "media.failed", code: 2, message: mediaErrorMessage(2) })
    send({ type: "player.select", index: 3 })
    expect(selectPlaybackError(child("playback"))).toBeNull()
  })

  it("shows the endscreen at the end of a VOD, and plays again from the start", async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "media.playing" })
    send({ type: "media.ended" })
    expect(selectIsEnded(child("playback"))).toBe(true)
    send({ type: "player.togglePlay" })
    expect(media.commands.slice(-2)).toEqual([{ type: "media.seekTo", time: 0 }, { type: "media.play" }])
    send({ type: "media.playing" })
    expect(selectIsEnded(child("playback"))).toBe(false)
  })

  it("loads again by itself once back online after the connection went, and only then", async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "media.reconnected" })
    expect(media.sent("media.load")).toHaveLength(1)
    send({ type: "media.failed", code: MediaErrorCode.NO_INTERNET, message: mediaErrorMessage(MediaErrorCode.NO_INTERNET) })
    expect(selectPlaybackError(child("playback"))).toEqual({ code: 1002, message: "No internet connection detected" })
    send({ type: "media.reconnected" })
    expect(selectPlaybackError(child("playback"))).toBeNull()
    expect(media.sent("media.load")).toHaveLength(2)
    // the network has nothing to do with an unsupported source
    send({ type: "media.failed", code: MediaErrorCode.SRC_NOT_SUPPORTED, message: mediaErrorMessage(4) })
    send({ type: "media.reconnected" })
    expect(selectPlaybackError(child("playback"))?.code).toBe(4)
    expect(media.sent("media.load")).toHaveLength(2)
  })

  it("keeps the first frame's time for the page", async () => {
    const { attach, send, child } = await startPlayer()
    await attach()
    send({ type: "media.firstFrame", ms: 412 })
    send({ type: "media.firstFrame", ms: 9000 })
    expect(selectFirstFrameMs(child("playback"))).toBe(412)
  })
})

describe("playerMachine over the media adapter and FakeHls: the network going and coming back", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("shows 'no internet' (1002) at once while playing, and plays again once back online", async () => {
    const { attach, child, video, network, hls } = await startHlsPlayer({ index: 2 })
    await attach()
    const first = hls()
    expect(first.source).toBe("/live/3/index.m3u8")
    first.parsed()
    video.dispatchEvent(new Event("playing"))
    expect(selectIsPlaying(child("playback"))).toBe(true)

    network.dispatchEvent(new Event("offline"))
    expect(selectPlaybackError(child("playback"))).toEqual({ code: 1002, message: "No internet connection detected" })
    expect(selectCanTogglePlay(child("playback"))).toBe(false)
    expect(video.paused).toBe(true)

    network.dispatchEvent(new Event("online"))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectPlaybackError(child("playback"))).toBeNull()
    expect(first.destroyed).toBe(true)
    const second = hls()
    expect(second).not.toBe(first)
    expect(second.source).toBe("/live/3/index.m3u8")
    second.parsed()
    expect(video.play).toHaveBeenCalledTimes(2)
    video.dispatchEvent(new Event("playing"))
    expect(selectIsPlaying(child("playback"))).toBe(true)
  })
})
