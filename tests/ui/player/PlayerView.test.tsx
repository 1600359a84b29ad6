import { act, fireEvent, screen, waitFor, within } from "@testing-library/react"
import type Hls from "hls.js"
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest"
import * as pageStyles from "../../../src/ui/player/PlayerView.css.ts"
import { visuallyHidden } from "../../../src/ui/shared/controls.css.ts"
import { FakeHls } from "../../support/FakeHls.ts"
import { fakeFullscreen } from "../../support/fakeFullscreen.ts"
import { renderApp, resetApp } from "../../support/renderApp.tsx"

const media = {
  loadHls: async () => FakeHls as unknown as typeof Hls,
  hasMse: () => true,
  pageProtocol: () => "http:",
  isOnline: () => true
}

const openPlayer = (path: string) => renderApp({ signedIn: true, path, media })
const location = () => `${window.location.pathname}${window.location.search}`
/** The instance playing on the page's video (a warm start may have created it before the page rendered). */
const lastHls = async (): Promise<FakeHls> => {
  await waitFor(() => expect(FakeHls.instances.at(-1)?.attached).toBeDefined())
  const instance = FakeHls.instances.at(-1)
  if (instance === undefined) throw new Error("no hls.js instance")
  return instance
}
const controls = () => screen.getByRole("group", { name: "Player controls" })

describe("the player pages", () => {
  beforeEach(() => {
    FakeHls.instances = []
    vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(async () => undefined)
    vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined)
    vi.spyOn(HTMLMediaElement.prototype, "load").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await resetApp()
    vi.restoreAllMocks()
  })

  it("plays the ?default stream's src in the TV player, with the list highlighting it", async () => {
    await openPlayer("/player?default=1")
    expect(await screen.findByRole("heading", { level: 1, name: "Sports Two" })).toBeTruthy()
    expect(screen.getByText("TV player")).toBeTruthy()
    const list = screen.getByRole("complementary", { name: "Streams" })
    const current = within(list)
      .getAllByRole("button")
      .filter((item) => item.getAttribute("aria-current") === "true")
    expect(current.map((item) => item.textContent)).toEqual(["Sports TwoNow playing"])
    expect(within(list).getAllByRole("img", { name: "Chromecast supported" })).toHaveLength(1)
    expect((await lastHls()).source).toMatch(/^\/live\/demo2\/index\.m3u8\?grant=g1\./)
    expect(within(controls()).getByRole("slider", { name: "Volume" }).getAttribute("data-ticks")).toBe("10")
    expect(within(controls()).getByRole("button", { name: "Mute" })).toBeTruthy()
    expect(screen.getByRole("link", { name: "Switch to low-latency player" }).getAttribute("href")).toBe("/playersldp?default=1")
  })

  it("switches stream without a reload and rewrites ?default", async () => {
    await openPlayer("/playersldp?default=1")
    await screen.findByRole("heading", { level: 1, name: "Sports Two" })
    const video = document.querySelector("video")
    fireEvent.click(screen.getByRole("button", { name: /^Sports One/ }))
    expect(await screen.findByRole("heading", { level: 1, name: "Sports One" })).toBeTruthy()
    await waitFor(() => expect(location()).toBe("/playersldp?default=0"))
    expect(document.querySelector("video")).toBe(video)
    await waitFor(() => expect(FakeHls.instances.at(-1)?.source).toMatch(/^\/live\/demo1\/index\.m3u8\?grant=g1\./))
    expect(FakeHls.instances.slice(0, -1).every((hls) => hls.destroyed)).toBe(true)
    expect(screen.getByRole("link", { name: "Switch to TV player" }).getAttribute("href")).toBe("/player?default=0")
    // the low-latency player's tags describe the stream under the title, cut to two lines
    expect(screen.getByText("Audio out of sync · English commentary")).toBeTruthy()
  })

  it("starts the first stream for a ?default that names none, and says so in the address", async () => {
    await openPlayer("/player?default=99&ui=8")
    expect(await screen.findByRole("heading", { level: 1, name: "Sports One" })).toBeTruthy()
    await waitFor(() => expect(location()).toBe("/player?default=0&ui=8"))
    expect(screen.getByRole("link", { name: "Switch to low-latency player" }).getAttribute("href")).toBe("/playersldp?default=0&ui=8")
    await resetApp()
    await openPlayer("/playersldp?default=abc")
    expect(await screen.findByRole("heading", { level: 1, name: "Sports One" })).toBeTruthy()
    await waitFor(() => expect(location()).toBe("/playersldp?default=0"))
  })

  it("leaves an address without ?default as it is", async () => {
    await openPlayer("/player?ui=8")
    expect(await screen.findByRole("heading", { level: 1, name: "Sports One" })).toBeTruthy()
    expect(location()).toBe("/player?ui=8")
  })

  it("keeps the rest of the query string when switching stream, and on the link to the other player", async () => {
    await openPlayer("/player?default=1&ui=8")
    await screen.findByRole("heading", { level: 1, name: "Sports Two" })
    expect(screen.getByRole("link", { name: "Switch to low-latency player" }).getAttribute("href")).toBe("/playersldp?default=1&ui=8")
    fireEvent.click(screen.getByRole("button", { name: /^Sports One/ }))
    await waitFor(() => expect(location()).toBe("/player?default=0&ui=8"))
    expect(screen.getByRole("link", { name: "Switch to low-latency player" }).getAttribute("href")).toBe("/playersldp?default=0&ui=8")
  })

  it("shows the error box with its code, disables play toggling, and tries again on request", async () => {
    await openPlayer("/playersldp?default=0")
    const hls = await lastHls()
    act(() =>
      hls.emit(FakeHls.Events.ERROR, { fatal: true, type: FakeHls.ErrorTypes.MEDIA_ERROR, details: "manifestIncompatibleCodecsError" })
    )
    const alert = await screen.findByRole("alert")
    expect(within(alert).getByText("Unsupported media type")).toBeTruthy()
    expect(within(alert).getByText("Error code 4")).toBeTruthy()
    expect(within(controls()).getByRole("button", { name: "Play" }).hasAttribute("disabled")).toBe(true)
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }))
    await waitFor(() => expect(FakeHls.instances).toHaveLength(2))
    expect(screen.queryByRole("alert")).toBeNull()
  })

  it("plays and pauses from the bar and the keyboard, and mutes with m", async () => {
    await openPlayer("/player?default=0")
    const hls = await lastHls()
    const video = document.querySelector("video") as HTMLVideoElement
    act(() => {
      hls.parsed()
      video.dispatchEvent(new Event("playing"))
    })
    fireEvent.click(within(controls()).getByRole("button", { name: "Pause" }))
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalledTimes(1)
    act(() => void video.dispatchEvent(new Event("pause")))
    const player = screen.getByRole("region", { name: "Video player" })
    fireEvent.keyDown(player, { key: "k" })
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(2)
    fireEvent.keyDown(player, { key: "m" })
    expect(video.muted).toBe(true)
    expect(within(controls()).getByRole("button", { name: "Unmute" })).toBeTruthy()
  })

  it("keeps volume and mute for the next visit", async () => {
    await openPlayer("/player?default=0")
    await lastHls()
    const slider = within(controls()).getByRole("slider", { name: "Volume" })
    fireEvent.keyDown(slider, { key: "ArrowDown" })
    fireEvent.keyDown(slider, { key: "ArrowDown" })
    fireEvent.click(within(controls()).getByRole("button", { name: "Mute" }))
    expect(window.localStorage.getItem("playerVolume")).toBe("0.8")
    expect(window.localStorage.getItem("playerMuted")).toBe("true")

    await resetApp()
    FakeHls.instances = []
    window.localStorage.setItem("playerVolume", "0.8")
    window.localStorage.setItem("playerMuted", "true")
    await openPlayer("/player?default=0")
    await lastHls()
    expect(await within(controls()).findByRole("button", { name: "Unmute" })).toBeTruthy()
    const video = document.querySelector("video") as HTMLVideoElement
    expect([video.volume, video.muted]).toEqual([0.8, true])
  })

  it("shows how far behind live the low-latency player is, on screen and for the benchmark", async () => {
    await openPlayer("/playersldp?default=0")
    const hls = await lastHls()
    act(() => hls.parsed())
    const level = hls.levels[0]
    if (level === undefined) throw new Error("a level")
    level.details = { live: true, edge: 30, fragmentStart: 18 }
    hls.currentLevel = 0
    hls.latency = 1.26
    const readout = await screen.findByText("1.3 s behind")
    // a tiny player drops the last word
    expect(readout.textContent).toBe("1.3 s behind live")
    expect(screen.getByRole("region", { name: "Video player" }).getAttribute("data-latency-ms")).toBe("1260")
    expect(screen.getByText("LIVE")).toBeTruthy()
  })

  it("honours the UI flags of the page", async () => {
    // no fullscreen 1, no volume 2, no mute 4, no title 256, no description 512
    await openPlayer(`/playersldp?default=0&ui=${1 + 2 + 4 + 256 + 512}`)
    await lastHls()
    expect(within(controls()).queryByRole("slider", { name: "Volume" })).toBeNull()
    expect(within(controls()).queryByRole("button", { name: "Mute" })).toBeNull()
    expect(within(controls()).queryByRole("button", { name: "Fullscreen" })).toBeNull()
    expect(screen.queryByText("Audio out of sync · English commentary")).toBeNull()
    expect(document.querySelector("h1")?.className).not.toBe("")

    await resetApp()
    FakeHls.instances = []
    await openPlayer("/playersldp?default=0&ui=1024")
    await lastHls()
    expect(screen.queryByRole("group", { name: "Player controls" })).toBeNull()
  })

  it("shows the stream's logo top-left, linking to the site in a new tab; the flags move it right and down", async () => {
    await openPlayer("/player?default=1")
    await lastHls()
    const logo = screen.getByRole("link", { name: "Home page (opens in a new tab)" })
    expect([logo.getAttribute("href"), logo.getAttribute("target"), logo.getAttribute("rel")]).toEqual(["/", "_blank", "noopener"])
    expect(logo.querySelector("img")?.getAttribute("src")).toBe("/img/2.svg")
    expect([logo.dataset.vertical, logo.dataset.horizontal]).toEqual(["top", "left"])

    for (const [ui, corner] of [
      [8, ["top", "right"]],
      [32768, ["bottom", "left"]],
      [8 + 32768, ["bottom", "right"]]
    ] as const) {
      await resetApp()
      FakeHls.instances = []
      await openPlayer(`/player?default=1&ui=${ui}`)
      await lastHls()
      const moved = screen.getByRole("link", { name: "Home page (opens in a new tab)" })
      expect([moved.dataset.vertical, moved.dataset.horizontal]).toEqual(corner)
      expect(screen.getByRole("region", { name: "Video player" }).dataset.logo).toBe(corner.join("-"))
    }
  })

  it("puts a grip on the seek bar's thumb with the drag-handle flag (16)", async () => {
    const seekBar = async (path: string) => {
      await openPlayer(path)
      const hls = await lastHls()
      act(() => hls.parsed())
      const level = hls.levels[0]
      if (level === undefined) throw new Error("a level")
      // a live window long enough to seek in
      level.details = { live: true, edge: 130, fragmentStart: 40 }
      hls.currentLevel = 0
      return within(controls()).findByRole("slider", { name: "Seek" })
    }
    const plain = await seekBar("/player?default=0")
    expect(plain.dataset.handle).toBe("false")
    await resetApp()
    FakeHls.instances = []
    const gripped = await seekBar("/player?default=0&ui=16")
    expect(gripped.dataset.handle).toBe("true")
    expect(gripped.style.getPropertyValue("--seek-filled")).toMatch(/%$/)
  })

  it("hides the title header with the no-header flag (4096), under the player as in fullscreen", async () => {
    const removeFullscreen = fakeFullscreen()
    onTestFinished(removeFullscreen)
    const goFullscreen = async () => {
      fireEvent.click(await within(controls()).findByRole("button", { name: "Fullscreen" }))
      await within(controls()).findByRole("button", { name: "Exit fullscreen" })
    }

    await openPlayer("/player?default=1")
    await lastHls()
    expect(screen.getByRole("heading", { level: 1, name: "Sports Two" }).className).toBe(pageStyles.title)
    expect(screen.getByText("TV player")).toBeTruthy()
    await goFullscreen()
    expect(within(screen.getByRole("region", { name: "Video player" })).getByText("Sports Two")).toBeTruthy()

    await resetApp()
    FakeHls.instances = []
    await openPlayer("/player?default=1&ui=4096")
    await lastHls()
    // still names the page for screen readers
    expect(screen.getByRole("heading", { level: 1, name: "Sports Two" }).className).toBe(visuallyHidden)
    expect(screen.queryByText("TV player")).toBeNull()
    await goFullscreen()
    expect(within(screen.getByRole("region", { name: "Video player" })).queryByText("Sports Two")).toBeNull()
  })

  it("does not play a stream in maintenance", async () => {
    await openPlayer("/player?default=2")
    expect(await screen.findByText("Steam under maintenance")).toBeTruthy()
    expect(screen.getByText(/Denne strømmen er under vedlikehold/).getAttribute("lang")).toBe("nb")
    expect(FakeHls.instances).toHaveLength(0)
  })

  it.each([
    ["staff ended its connection", { access: "ended", reason: "staff" }, "Staff ended this session"],
    ["the account's limit bumped it", { access: "ended", reason: "replaced" }, "Playing on another device now"]
  ])("stops claiming to play once %s: the list says why and no live chip stays", async (_, answer, title) => {
    // the server's answer to 'why was the playlist refused?'
    const wrapFetch =
      (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
      async (input, init) =>
        String(input).endsWith("/api/streams/access")
          ? new Response(JSON.stringify({ success: true, maxStreams: 1, playing: [], ...answer }), {
              headers: { "content-type": "application/json" }
            })
          : fetch(input, init)
    await renderApp({ signedIn: true, path: "/playersldp?default=0", media, wrapFetch })
    const hls = await lastHls()
    act(() => hls.parsed())
    const level = hls.levels[0]
    if (level === undefined) throw new Error("a level")
    level.details = { live: true, edge: 30, fragmentStart: 18 }
    hls.currentLevel = 0
    hls.latency = 1.4
    expect((await screen.findByText("1.4 s behind")).textContent).toBe("1.4 s behind live")
    const list = screen.getByRole("complementary", { name: "Streams" })
    const current = () => within(list).getByRole("button", { current: true }).textContent
    expect(current()).toMatch(/^Sports One.*Now playing$/)

    act(() =>
      hls.emit(FakeHls.Events.ERROR, {
        fatal: true,
        type: FakeHls.ErrorTypes.NETWORK_ERROR,
        details: "levelLoadError",
        response: { code: 410 }
      })
    )
    expect(await screen.findByRole("alert")).toBeTruthy()
    expect(screen.getByRole("alert").textContent).toContain(title)
    expect(current()?.endsWith(title)).toBe(true)
    expect(current()).not.toContain("Now playing")
    expect(within(controls()).queryByText("LIVE")).toBeNull()
    expect(within(controls()).queryByText(/behind/)).toBeNull()
    expect(screen.getByRole("region", { name: "Video player" }).getAttribute("data-latency-ms")).toBeNull()
  })
})
