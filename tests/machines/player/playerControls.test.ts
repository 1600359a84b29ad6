import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { CONTROLS_HIDE_MS } from "../../../src/domain/PlayerLimits.ts"
import { selectControlsShown, selectHovered, selectIsTouch } from "../../../src/machines/player/playerControlsMachine.ts"
import { PLAYER_TUNING } from "../../../src/machines/player/playerTuning.ts"
import { liveTiming, startPlayer } from "../../support/playerHarness.ts"

const playing = async () => {
  const player = await startPlayer()
  await player.attach()
  player.send({ type: "media.playing" })
  return { ...player, shown: () => selectControlsShown(player.child("controls")) }
}

describe("playerMachine: the control bar", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it(`hides ${CONTROLS_HIDE_MS} ms after the last mouse movement while playing`, async () => {
    const { send, shown, child } = await playing()
    send({ type: "controls.pointerMove", pointerType: "mouse" })
    expect(selectHovered(child("controls"))).toBe(true)
    await vi.advanceTimersByTimeAsync(1500)
    send({ type: "controls.pointerMove", pointerType: "mouse" })
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS - 1)
    expect(shown()).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(shown()).toBe(false)
    send({ type: "controls.pointerMove", pointerType: "mouse" })
    expect(shown()).toBe(true)
  })

  it(`hides ${CONTROLS_HIDE_MS} ms after the mouse leaves`, async () => {
    const { send, shown, child } = await playing()
    send({ type: "controls.pointerMove", pointerType: "mouse" })
    await vi.advanceTimersByTimeAsync(1000)
    send({ type: "controls.pointerLeave" })
    expect(selectHovered(child("controls"))).toBe(false)
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS - 1)
    expect(shown()).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(shown()).toBe(false)
  })

  it(`hides ${CONTROLS_HIDE_MS} ms after the mouse leaves, however often the picture stalls and moves on meanwhile`, async () => {
    const { send, shown } = await playing()
    send({ type: "controls.pointerMove", pointerType: "mouse" })
    send({ type: "controls.pointerLeave" })
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS - 100)
    send({ type: "media.waiting" })
    send({ type: "media.playing" })
    await vi.advanceTimersByTimeAsync(99)
    expect(shown()).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(shown()).toBe(false)
  })

  it("stays while paused, and comes back when playback stops or fails", async () => {
    const { send, shown } = await playing()
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS)
    expect(shown()).toBe(false)
    send({ type: "media.paused" })
    expect(shown()).toBe(true)
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS * 3)
    expect(shown()).toBe(true)
    send({ type: "media.playing" })
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS)
    expect(shown()).toBe(false)
    send({ type: "media.failed", code: 2, message: "A network error occurred" })
    expect(shown()).toBe(true)
  })

  it("shows on keyboard focus or a key, and hides again 2 s later", async () => {
    const { send, shown } = await playing()
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS)
    send({ type: "controls.activity" })
    expect(shown()).toBe(true)
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS)
    expect(shown()).toBe(false)
  })

  it("stays while keyboard focus is on one of its controls, and hides 2 s after focus leaves", async () => {
    const { send, shown } = await playing()
    send({ type: "controls.focusIn" })
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS * 5)
    expect(shown()).toBe(true)
    send({ type: "controls.focusOut" })
    await vi.advanceTimersByTimeAsync(CONTROLS_HIDE_MS - 1)
    expect(shown()).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(shown()).toBe(false)
    // tabbing back onto a control brings the hidden bar back
    send({ type: "controls.focusIn" })
    expect(shown()).toBe(true)
  })

  describe("on a touch device", () => {
    const touchPlayer = async () => {
      const player = await playing()
      player.send({ type: "screen.pointer", touch: true })
      expect(selectIsTouch(player.child("controls"))).toBe(true)
      return player
    }

    it("knows it is one from the coarse pointer or from a touch", async () => {
      const { send, child } = await playing()
      expect(selectIsTouch(child("controls"))).toBe(false)
      send({ type: "controls.pointerMove", pointerType: "touch" })
      expect(selectIsTouch(child("controls"))).toBe(true)
      expect(selectHovered(child("controls"))).toBe(false)
      send({ type: "controls.pointerMove", pointerType: "mouse" })
      expect(selectIsTouch(child("controls"))).toBe(false)
    })

    it("toggles the controls on a single tap", async () => {
      const { send, shown } = await touchPlayer()
      send({ type: "controls.tap", zone: "middle" })
      expect(shown()).toBe(false)
      send({ type: "controls.tap", zone: "middle" })
      expect(shown()).toBe(true)
      // a side tap waits to see whether a second one follows
      send({ type: "controls.tap", zone: "right" })
      expect(shown()).toBe(true)
      await vi.advanceTimersByTimeAsync(PLAYER_TUNING.doubleTapMs)
      expect(shown()).toBe(false)
    })

    it("seeks 5 s back or forward on a double tap in the left or right third", async () => {
      const { send, media } = await touchPlayer()
      // a live window long enough to seek in (SPEC §9)
      send(liveTiming({ currentTime: 100, start: 30 }))
      send({ type: "controls.tap", zone: "left" })
      await vi.advanceTimersByTimeAsync(PLAYER_TUNING.doubleTapMs - 50)
      send({ type: "controls.tap", zone: "left" })
      expect(media.sent("media.seekTo")).toEqual([{ type: "media.seekTo", time: 95 }])
      send({ type: "controls.tap", zone: "right" })
      send({ type: "controls.tap", zone: "right" })
      expect(media.sent("media.seekTo").at(-1)).toEqual({ type: "media.seekTo", time: 105 })
    })

    it("does not take two taps on different sides for a double tap", async () => {
      const { send, media, shown } = await touchPlayer()
      send(liveTiming())
      send({ type: "controls.tap", zone: "left" })
      send({ type: "controls.tap", zone: "right" })
      expect(shown()).toBe(false)
      await vi.advanceTimersByTimeAsync(PLAYER_TUNING.doubleTapMs)
      expect(shown()).toBe(true)
      expect(media.sent("media.seekTo")).toEqual([])
    })
  })
})
