import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react"
import type Hls from "hls.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { type EarlyCalls, startEarlyCalls } from "../../../src/adapters/http/earlyCalls.ts"
import { startWarmPlayer, type WarmPlayer } from "../../../src/adapters/media/warmPlayer.ts"
import { createStorage } from "../../../src/adapters/storage/storage.ts"
import { type App, createApp } from "../../../src/app/createApp.tsx"
import { MAINTENANCE_ROUTE, STREAMS_ROUTE } from "../../../src/domain/startupRoutes.ts"
import { createWarmShell } from "../../../src/ui/player/warmShell.ts"
import { FakeHls } from "../../support/FakeHls.ts"
import { type RecordedCall, recordCalls } from "../../support/injectFetch.ts"
import { type InProcessServer, startInProcessServer } from "../../support/inProcessServer.ts"
import type { Seed } from "../../support/serverSeed.ts"

const media = {
  loadHls: async () => FakeHls as unknown as typeof Hls,
  hasMse: () => true,
  pageProtocol: () => "http:",
  isOnline: () => true
}

let app: App | undefined
let server: InProcessServer | undefined
let root: HTMLElement

/** The real server, and a session of its user stored as the app keeps it. */
const signedInServer = async (seed: Seed = {}) => {
  server = await startInProcessServer(seed)
  const token = await server.signIn("ann@example.com")
  createStorage(window.localStorage).setToken(token)
  return { ...recordCalls(server.fetch), token }
}

/** What main.tsx does on a player page, over the real server: the warm start, then the app once it settles. */
const openWarm = async (path: string) => {
  const backend = await signedInServer()
  window.history.replaceState(null, "", path)
  const storage = createStorage(window.localStorage)
  root = document.createElement("div")
  document.body.append(root)
  let early: EarlyCalls | undefined
  const warm = startWarmPlayer(window.location, {
    answers: (token) => {
      early = startEarlyCalls(backend.fetch, token, [MAINTENANCE_ROUTE, STREAMS_ROUTE])
      return { maintenance: early.json(MAINTENANCE_ROUTE), streams: early.json(STREAMS_ROUTE) }
    },
    media,
    token: storage.getToken(),
    volume: () => ({ volume: 1, muted: false }),
    createShell: () => createWarmShell(root),
    watchFirstFrame: () => () => undefined,
    patienceMs: 2500
  }) as WarmPlayer
  const mount = () => {
    app = createApp({ fetch: early?.fetch ?? backend.fetch, storage, media, warm, isMobile: () => false })
    render(app.element, { container: root })
  }
  return { warm, backend, mount }
}

const streamCalls = (backend: { calls: ReadonlyArray<RecordedCall> }) => backend.calls.filter((call) => call.path === "/api/streams/all")

describe("a player page opened directly", () => {
  beforeEach(() => {
    FakeHls.instances = []
    vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(async () => undefined)
    vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => undefined)
    vi.spyOn(HTMLMediaElement.prototype, "load").mockImplementation(() => undefined)
  })
  afterEach(async () => {
    cleanup()
    app?.dispose()
    app = undefined
    document.body.replaceChildren()
    window.localStorage.clear()
    vi.restoreAllMocks()
    await server?.dispose()
    server = undefined
  })

  it("plays before the app exists, in a stand-in of the page, and the page carries on with the same stream", async () => {
    const { backend, mount } = await openWarm("/player?default=1")
    await waitFor(() => expect(FakeHls.instances).toHaveLength(1))
    const playing = FakeHls.instances[0]
    const video = playing?.attached as HTMLVideoElement
    expect(playing?.source).toMatch(/^\/live\/demo2\/index\.m3u8\?grant=g1\./)
    expect(root.hidden).toBe(true)
    expect(document.querySelector("[aria-busy='true'] video")).toBe(video)
    act(() => void video.dispatchEvent(new Event("playing")))

    mount()
    expect(await screen.findByRole("heading", { level: 1, name: "Sports Two" })).toBeTruthy()
    await waitFor(() => expect(root.hidden).toBe(false))
    expect(document.querySelector("[aria-busy]")).toBeNull()
    expect(root.querySelector("video")).toBe(video)
    // no second start: the page adopted the running session and heard that it plays
    expect(FakeHls.instances).toHaveLength(1)
    expect(playing?.destroyed).toBe(false)
    expect(within(screen.getByRole("group", { name: "Player controls" })).getByRole("button", { name: "Pause" })).toBeTruthy()
    // the warm start's calls served the page too: the app decoded the same answers
    expect(streamCalls(backend)).toHaveLength(1)
    expect(backend.calls.filter((call) => call.path === "/api/maintenance")).toHaveLength(1)
  })

  it("switches to another stream on the same element afterwards", async () => {
    const { mount } = await openWarm("/player?default=1")
    await waitFor(() => expect(FakeHls.instances).toHaveLength(1))
    const video = FakeHls.instances[0]?.attached
    mount()
    await screen.findByRole("heading", { level: 1, name: "Sports Two" })
    act(() => void screen.getByRole("button", { name: /^Sports One/ }).click())
    await waitFor(() => expect(FakeHls.instances.at(-1)?.source).toMatch(/^\/live\/demo1\/index\.m3u8\?grant=g1\./))
    expect(FakeHls.instances[0]?.destroyed).toBe(true)
    expect(FakeHls.instances.at(-1)?.attached).toBe(video)
  })

  it("lets the app show maintenance on its own, with nothing playing", async () => {
    const backend = await signedInServer({
      maintenance: {
        title: "Scheduled maintenance",
        firstRowText: "We are upgrading our servers.",
        secondRowText: "Please come back in about an hour."
      }
    })
    window.history.replaceState(null, "", "/player?default=0")
    const warm = startWarmPlayer(window.location, {
      answers: (token) => {
        const early = startEarlyCalls(backend.fetch, token, [MAINTENANCE_ROUTE, STREAMS_ROUTE])
        return { maintenance: early.json(MAINTENANCE_ROUTE), streams: early.json(STREAMS_ROUTE) }
      },
      media,
      token: backend.token,
      volume: () => ({ volume: 1, muted: false }),
      createShell: () => {
        throw new Error("no stand-in under maintenance")
      },
      watchFirstFrame: () => () => undefined,
      patienceMs: 2500
    })
    await warm?.settled
    expect(FakeHls.instances).toEqual([])
  })
})
