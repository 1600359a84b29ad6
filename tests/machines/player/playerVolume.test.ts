import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { PLAYER_TUNING, sizeForWidth } from "../../../src/machines/player/playerTuning.ts"
import { selectIsMuted, selectLitTicks, selectVolume, selectVolumeTicks } from "../../../src/machines/player/playerVolumeMachine.ts"
import { startPlayer } from "../../support/playerHarness.ts"

describe("playerMachine: volume", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("applies the stored volume and mute to the media as soon as the video is attached", async () => {
    const { media, attach, child } = await startPlayer({ stored: { volume: 0.4, muted: true } })
    await attach()
    expect(media.sent("media.volume")).toEqual([{ type: "media.volume", volume: 0.4, muted: true }])
    expect(selectIsMuted(child("volume"))).toBe(true)
    expect(selectLitTicks(child("volume"))).toBe(0)
  })

  it("shows 10 ticks, 8 on a small player and 6 on a tiny one", async () => {
    const { attach, send, child } = await startPlayer()
    await attach()
    expect(selectVolumeTicks(child("volume"))).toBe(10)
    send({ type: "screen.resized", width: PLAYER_TUNING.smallWidth - 1 })
    expect(selectVolumeTicks(child("volume"))).toBe(8)
    send({ type: "screen.resized", width: PLAYER_TUNING.tinyWidth - 1 })
    expect(selectVolumeTicks(child("volume"))).toBe(6)
    send({ type: "screen.resized", width: PLAYER_TUNING.smallWidth })
    expect(selectVolumeTicks(child("volume"))).toBe(10)
    expect([390, 500, 1000].map(sizeForWidth)).toEqual(["tiny", "small", "normal"])
  })

  it("steps one tick at a time, within 0 and 1, and remembers each change", async () => {
    const { media, persistVolume, attach, send, child } = await startPlayer({ stored: { volume: 0.5, muted: false } })
    await attach()
    send({ type: "screen.resized", width: 300 })
    send({ type: "volume.step", by: 1 })
    expect(selectVolume(child("volume"))).toBeCloseTo(4 / 6)
    expect(selectLitTicks(child("volume"))).toBe(4)
    for (let step = 0; step < 5; step += 1) send({ type: "volume.step", by: 1 })
    expect(selectVolume(child("volume"))).toBe(1)
    send({ type: "volume.step", by: -1 })
    expect(selectVolume(child("volume"))).toBeCloseTo(5 / 6)
    expect(media.sent("media.volume").at(-1)).toEqual({ type: "media.volume", volume: 5 / 6, muted: false })
    expect(persistVolume).toHaveBeenLastCalledWith({ volume: 5 / 6, muted: false })
  })

  it("mutes and unmutes, keeping the level; unmuting at zero comes back at one tick", async () => {
    const { media, persistVolume, attach, send, child } = await startPlayer({ stored: { volume: 0.7, muted: false } })
    await attach()
    send({ type: "volume.toggleMute" })
    expect(selectIsMuted(child("volume"))).toBe(true)
    expect(media.sent("media.volume").at(-1)).toEqual({ type: "media.volume", volume: 0.7, muted: true })
    expect(persistVolume).toHaveBeenLastCalledWith({ volume: 0.7, muted: true })
    send({ type: "volume.toggleMute" })
    expect(selectIsMuted(child("volume"))).toBe(false)
    expect(selectVolume(child("volume"))).toBe(0.7)

    send({ type: "volume.set", volume: 0 })
    expect(selectIsMuted(child("volume"))).toBe(true)
    send({ type: "volume.toggleMute" })
    send({ type: "volume.toggleMute" })
    expect(selectVolume(child("volume"))).toBeCloseTo(0.1)
    expect(selectIsMuted(child("volume"))).toBe(false)
  })

  it("unmutes when the viewer sets a level", async () => {
    const { attach, send, child } = await startPlayer({ stored: { volume: 0.3, muted: true } })
    await attach()
    send({ type: "volume.set", volume: 0.6 })
    expect(selectIsMuted(child("volume"))).toBe(false)
    expect(selectVolume(child("volume"))).toBe(0.6)
  })

  it("does not remember a mute the browser's autoplay rules forced", async () => {
    const { persistVolume, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "media.autoMuted" })
    expect(selectIsMuted(child("volume"))).toBe(true)
    expect(persistVolume).not.toHaveBeenCalled()
  })
})
