import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { selectCastAvailable, selectCastConnection } from "../../../src/machines/player/playerCastMachine.ts"
import {
  selectCanFullscreen,
  selectCanPip,
  selectIsFullscreen,
  selectIsPip,
  selectSize
} from "../../../src/machines/player/playerScreenMachine.ts"
import { startPlayer } from "../../support/playerHarness.ts"

describe("playerMachine: fullscreen, picture-in-picture and casting", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("asks the fullscreen adapter only where fullscreen exists, and follows what it reports", async () => {
    const { fullscreen, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "screen.toggleFullscreen" })
    expect(fullscreen.commands).toEqual([])
    expect(selectCanFullscreen(child("screen"))).toBe(false)

    fullscreen.report({ type: "screen.fullscreenAvailable", available: true })
    send({ type: "screen.toggleFullscreen" })
    expect(fullscreen.commands).toEqual([{ type: "fullscreen.enter" }])
    expect(selectIsFullscreen(child("screen"))).toBe(false)
    fullscreen.report({ type: "screen.fullscreenChanged", active: true })
    expect(selectIsFullscreen(child("screen"))).toBe(true)
    send({ type: "screen.toggleFullscreen" })
    expect(fullscreen.commands.at(-1)).toEqual({ type: "fullscreen.exit" })
    // Escape ends it without us
    fullscreen.report({ type: "screen.fullscreenChanged", active: false })
    expect(selectIsFullscreen(child("screen"))).toBe(false)
  })

  it("never asks for fullscreen when the page's UI flags forbid it (NO_FULLSCREEN, 1)", async () => {
    const { fullscreen, attach, send } = await startPlayer({ ui: 1 })
    await attach()
    fullscreen.report({ type: "screen.fullscreenAvailable", available: true })
    send({ type: "screen.toggleFullscreen" })
    expect(fullscreen.commands).toEqual([])
  })

  it("knows the player's size class from the adapter's width reports", async () => {
    const { fullscreen, attach, child } = await startPlayer()
    await attach()
    fullscreen.report({ type: "screen.resized", width: 358 })
    expect(selectSize(child("screen"))).toBe("tiny")
  })

  it("toggles picture-in-picture where it is available", async () => {
    const { pip, attach, send, child } = await startPlayer()
    await attach()
    pip.report({ type: "screen.pipAvailable", available: true })
    expect(selectCanPip(child("screen"))).toBe(true)
    send({ type: "screen.togglePip" })
    pip.report({ type: "screen.pipChanged", active: true })
    expect(selectIsPip(child("screen"))).toBe(true)
    send({ type: "screen.togglePip" })
    expect(pip.commands).toEqual([{ type: "pip.enter" }, { type: "pip.exit" }])
  })

  it("offers a cast target only while the browser reports one, and shows the picker on request", async () => {
    const { cast, attach, send, child } = await startPlayer()
    await attach()
    send({ type: "cast.prompt", target: "chromecast" })
    expect(cast.sent("cast.showPicker")).toEqual([])

    cast.report({ type: "cast.availability", target: "chromecast", available: true })
    expect(selectCastAvailable(child("casting"), "chromecast")).toBe(true)
    expect(selectCastAvailable(child("casting"), "airplay")).toBe(false)
    send({ type: "cast.prompt", target: "chromecast" })
    expect(cast.sent("cast.showPicker")).toEqual([{ type: "cast.showPicker", target: "chromecast" }])

    cast.report({ type: "cast.connection", target: "chromecast", state: "connecting" })
    expect(selectCastConnection(child("casting"), "chromecast")).toBe("connecting")
    cast.report({ type: "cast.connection", target: "chromecast", state: "connected" })
    expect(selectCastConnection(child("casting"), "chromecast")).toBe("connected")
    cast.report({ type: "cast.connection", target: "chromecast", state: "disconnected" })
    expect(selectCastConnection(child("casting"), "chromecast")).toBe("disconnected")

    cast.report({ type: "cast.availability", target: "airplay", available: true })
    send({ type: "cast.prompt", target: "airplay" })
    expect(cast.commands.at(-1)).toEqual({ type: "cast.showPicker", target: "airplay" })
    cast.report({ type: "cast.availability", target: "airplay", available: false })
    expect(selectCastAvailable(child("casting"), "airplay")).toBe(false)
  })

  it("opens the picker from the pressed button while casting, to stop or change device", async () => {
    const { cast, attach, send } = await startPlayer()
    await attach()
    cast.report({ type: "cast.availability", target: "chromecast", available: true })
    cast.report({ type: "cast.connection", target: "chromecast", state: "connecting" })
    send({ type: "cast.prompt", target: "chromecast" })
    cast.report({ type: "cast.connection", target: "chromecast", state: "connected" })
    send({ type: "cast.prompt", target: "chromecast" })
    expect(cast.sent("cast.showPicker")).toEqual([
      { type: "cast.showPicker", target: "chromecast" },
      { type: "cast.showPicker", target: "chromecast" }
    ])
  })

  it("shows no button once a session ends with its last device gone, and one while a device is left", async () => {
    const { cast, attach, child } = await startPlayer()
    await attach()
    cast.report({ type: "cast.availability", target: "chromecast", available: true })
    cast.report({ type: "cast.availability", target: "airplay", available: true })
    cast.report({ type: "cast.connection", target: "chromecast", state: "connected" })
    // the device goes: the browser says so, then ends the session
    cast.report({ type: "cast.availability", target: "chromecast", available: false })
    expect(selectCastConnection(child("casting"), "chromecast")).toBe("connected")
    cast.report({ type: "cast.connection", target: "chromecast", state: "disconnected" })
    expect(selectCastAvailable(child("casting"), "chromecast")).toBe(false)
    // the other kind is untouched, and a session ended with its device still there keeps the button
    expect(selectCastAvailable(child("casting"), "airplay")).toBe(true)
    cast.report({ type: "cast.connection", target: "airplay", state: "connected" })
    cast.report({ type: "cast.connection", target: "airplay", state: "disconnected" })
    expect(selectCastAvailable(child("casting"), "airplay")).toBe(true)
    // a "disconnected" with no session before it, from a browser with no device, shows nothing either
    cast.report({ type: "cast.connection", target: "chromecast", state: "disconnected" })
    expect(selectCastAvailable(child("casting"), "chromecast")).toBe(false)
  })
})
