import { afterEach, describe, expect, it, vi } from "vitest"
import { startWarmPlayer, type WarmPlayerDeps } from "../../../src/adapters/media/warmPlayer.ts"
import type { MediaFact } from "../../../src/domain/MediaProtocol.ts"
import { Stream } from "../../../src/domain/Stream.ts"
import { FakeHls } from "../../support/FakeHls.ts"
import { FakeVideo, flush, deps as mediaDeps } from "../../support/hlsMediaVideo.ts"
import { WAIT } from "../../support/timeouts.ts"

const stream = (id: number, overrides: Partial<Stream> = {}) =>
  new Stream({
    id,
    title: `Channel ${id}`,
    src: `/live/${id}/index.m3u8`,
    src_sldp: `/live/${id}/ll.m3u8`,
    image_location: "/p.svg",
    tags: "",
    tags_sldp: "",
    maintenance_mode: false,
    ...overrides
  })

interface SetupOptions {
  readonly path?: string
  readonly token?: string | null
  readonly maintenance?: boolean
  readonly streams?: ReadonlyArray<Stream>
  /** answers as they came off the wire, instead of well-formed ones */
  readonly raw?: { readonly maintenance?: unknown; readonly streams?: unknown }
}

const setup = (options: SetupOptions = {}) => {
  FakeHls.instances = []
  const [pathname = "/player", search = ""] = (options.path ?? "/player?default=1").split(/(?=\?)/)
  const calls: Array<string> = []
  const answers = (token: string) => {
    calls.push(token)
    const maintenance = { maintenanceMode: options.maintenance ?? false, title: "", firstRowText: "", secondRowText: "" }
    const streams = { success: true, data: options.streams ?? [stream(1), stream(2)] }
    return {
      maintenance: Promise.resolve(options.raw !== undefined && "maintenance" in options.raw ? options.raw.maintenance : maintenance),
      streams: Promise.resolve(options.raw !== undefined && "streams" in options.raw ? options.raw.streams : streams)
    }
  }
  const video = new FakeVideo()
  const shell = { video: video as unknown as HTMLVideoElement, show: vi.fn(), remove: vi.fn() }
  let frame: (ms: number) => void = () => undefined
  const preloadHls = vi.fn()
  const deps: WarmPlayerDeps = {
    answers,
    media: mediaDeps({ preloadHls }),
    token: options.token === undefined ? "t-1" : options.token,
    volume: () => ({ volume: 0.4, muted: true }),
    createShell: vi.fn(() => shell),
    watchFirstFrame: (_element, report) => {
      frame = report
      return () => undefined
    },
    patienceMs: 2500
  }
  const warm = startWarmPlayer({ pathname, search }, deps)
  return { warm, deps, calls, video, shell, preloadHls, firstFrame: (ms: number) => frame(ms) }
}

const settledNow = async (promise: Promise<void> | undefined) => {
  let done = false
  void promise?.then(() => (done = true))
  await flush()
  return done
}

afterEach(() => vi.useRealTimers())

describe("a player page's warm start", () => {
  it("only starts on a player page with a stored session", () => {
    expect(setup({ path: "/" }).warm).toBeUndefined()
    expect(setup({ path: "/profile" }).warm).toBeUndefined()
    const signedOut = setup({ token: null })
    expect(signedOut.warm).toBeUndefined()
    expect(signedOut.calls).toEqual([])
  })

  it("sends the start-up calls with the session at once, and fetches hls.js as soon as it knows the source", async () => {
    const { calls, preloadHls } = setup()
    expect(calls).toEqual(["t-1"])
    expect(preloadHls).not.toHaveBeenCalled()
    await flush()
    expect(preloadHls).toHaveBeenCalledOnce()
  })

  it("shows its stand-in once the stream's first data is on its way, so drawing it does not hold that up", async () => {
    let ready: () => void = () => undefined
    const prefetch = vi.fn(() => ({
      take: () => undefined,
      startPosition: () => null,
      ready: new Promise<void>((resolve) => (ready = resolve)),
      cancel: () => undefined
    }))
    FakeHls.instances = []
    const video = new FakeVideo()
    const shell = { video: video as unknown as HTMLVideoElement, show: vi.fn(), remove: vi.fn() }
    startWarmPlayer(
      { pathname: "/player", search: "" },
      {
        answers: () => ({
          maintenance: Promise.resolve({ maintenanceMode: false }),
          streams: Promise.resolve({ success: true, data: [stream(1)] })
        }),
        media: mediaDeps({ prefetch }),
        token: "t-1",
        volume: () => ({ volume: 1, muted: false }),
        createShell: () => shell,
        watchFirstFrame: () => () => undefined,
        patienceMs: 2500
      }
    )
    await flush()
    expect(prefetch).toHaveBeenCalledWith("/live/1/index.m3u8", false, undefined)
    expect(shell.show).not.toHaveBeenCalled()
    ready()
    await flush()
    expect(shell.show).toHaveBeenCalledOnce()
  })

  it("hands the prefetch the playlist that came with the list, only when it is this very source's", async () => {
    const started = async (playlist: unknown) => {
      const prefetch = vi.fn((_source: string, _low: boolean, _playlist?: unknown) => ({
        take: () => undefined,
        startPosition: () => null,
        ready: Promise.resolve(),
        cancel: () => undefined
      }))
      startWarmPlayer(
        { pathname: "/player", search: "" },
        {
          answers: () => ({
            maintenance: Promise.resolve({ maintenanceMode: false }),
            streams: Promise.resolve({ success: true, data: [stream(1)], playlist })
          }),
          media: mediaDeps({ prefetch }),
          token: "t-1",
          volume: () => ({ volume: 1, muted: false }),
          createShell: () => ({ video: new FakeVideo() as unknown as HTMLVideoElement, show: vi.fn(), remove: vi.fn() }),
          watchFirstFrame: () => () => undefined,
          patienceMs: 2500
        }
      )
      await flush()
      return prefetch.mock.calls[0]
    }
    expect(await started({ url: "/live/1/index.m3u8", text: "#EXTM3U" })).toEqual([
      "/live/1/index.m3u8",
      false,
      { url: "/live/1/index.m3u8", text: "#EXTM3U" }
    ])
    for (const other of [{ url: "/live/2/index.m3u8", text: "#EXTM3U" }, { url: "/live/1/index.m3u8", text: 42 }, "#EXTM3U", undefined]) {
      expect(await started(other), JSON.stringify(other)).toEqual(["/live/1/index.m3u8", false, undefined])
    }
  })

  it("shows its stand-in at once where the browser plays the stream itself, without a prefetch", async () => {
    const { shell } = setup({ path: "/player?default=0" })
    await flush()
    expect(shell.show).toHaveBeenCalledOnce()
  })

  it("leaves everything to the app when an answer failed or is not what it expects", async () => {
    const cases = [
      setup({ raw: { streams: undefined } }),
      setup({ raw: { maintenance: undefined } }),
      setup({ raw: { maintenance: { maintenanceMode: "no" } } }),
      setup({ raw: { streams: { success: false, status: 500, detail: "down" } } }),
      setup({ raw: { streams: { success: true, data: "nope" } } }),
      setup({ raw: { streams: { success: true, data: [{}, { src: 42, src_sldp: null, maintenance_mode: false }] } } }),
      setup({ raw: { streams: { success: true, data: [{}, { src: "/a.m3u8", src_sldp: null }] } } })
    ]
    for (const { warm, deps } of cases) {
      expect(await settledNow(warm?.settled)).toBe(true)
      expect(deps.createShell).not.toHaveBeenCalled()
    }
    expect(FakeHls.instances).toEqual([])
  })

  it("plays the ?default stream in a stand-in of the page, with the stored volume", async () => {
    const { warm, deps, video } = setup({ path: "/player?default=1" })
    await flush()
    expect(deps.createShell).toHaveBeenCalledOnce()
    expect([video.volume, video.muted]).toEqual([0.4, true])
    await vi.waitFor(() => expect(FakeHls.instances[0]?.source).toBe("/live/2/index.m3u8"), WAIT)
    expect(FakeHls.instances[0]?.attached).toBe(video)
    expect(await settledNow(warm?.settled)).toBe(false)
  })

  it("plays the stream named by ?stream= (its id), whatever ?default= says", async () => {
    setup({ path: "/player?default=0&stream=2", streams: [stream(1), stream(2), stream(3)] })
    await vi.waitFor(() => expect(FakeHls.instances[0]?.source).toBe("/live/2/index.m3u8"), WAIT)
    setup({ path: "/player?default=2&stream=9", streams: [stream(1), stream(2), stream(3)] })
    await vi.waitFor(() => expect(FakeHls.instances[0]?.source).toBe("/live/3/index.m3u8"), WAIT)
  })

  it("starts at the moment ?from= names, and hands over only to a player asking for that very start", async () => {
    const at = Date.parse("2030-03-01T19:00:00.000Z")
    for (const asked of [at, undefined, at + 1000]) {
      const { warm, video } = setup({ path: "/player?stream=2&from=2030-03-01T19:00:00.000Z" })
      await vi.waitFor(() => expect(FakeHls.instances).toHaveLength(1), WAIT)
      // the library waits for the playlist's dates before it loads anything
      expect(FakeHls.instances[0]?.config.autoStartLoad).toBe(false)
      const session = warm?.adopt(video as unknown as HTMLVideoElement, "/live/2/index.m3u8", false, () => undefined, asked)
      expect(session !== undefined).toBe(asked === at)
    }
  })

  it("plays the low-latency source on /playersldp", async () => {
    setup({ path: "/playersldp/?default=0" })
    await vi.waitFor(() => expect(FakeHls.instances[0]?.source).toBe("/live/1/ll.m3u8"), WAIT)
  })

  it("leaves everything to the app under maintenance, or for a stream that cannot play here", async () => {
    const cases = [
      setup({ maintenance: true }),
      setup({ path: "/player?default=5" }),
      setup({ streams: [stream(1), stream(2, { maintenance_mode: true })] }),
      setup({ streams: [stream(1), stream(2, { src: null })] })
    ]
    for (const { warm, deps } of cases) {
      expect(await settledNow(warm?.settled)).toBe(true)
      expect(deps.createShell).not.toHaveBeenCalled()
      expect(warm?.placeVideo({ prepend: vi.fn() } as unknown as HTMLElement)).toBeUndefined()
    }
    expect(FakeHls.instances).toEqual([])
  })

  it("lets the app start at the first frame, or on a failure", async () => {
    const first = setup()
    await vi.waitFor(() => expect(FakeHls.instances).toHaveLength(1), WAIT)
    first.firstFrame(321)
    expect(await settledNow(first.warm?.settled)).toBe(true)

    const failing = setup()
    await vi.waitFor(() => expect(FakeHls.instances).toHaveLength(1), WAIT)
    FakeHls.instances[0]?.emit(FakeHls.Events.ERROR, { fatal: true, type: FakeHls.ErrorTypes.NETWORK_ERROR })
    expect(await settledNow(failing.warm?.settled)).toBe(true)
  })

  it("lets the app start anyway once its patience runs out", async () => {
    vi.useFakeTimers()
    const { warm } = setup()
    let settled = false
    void warm?.settled.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(2499)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toBe(true)
  })

  it("hands the playing element and its session over, replaying what happened so far", async () => {
    const { warm, video, shell, firstFrame } = setup()
    await vi.waitFor(() => expect(FakeHls.instances).toHaveLength(1), WAIT)
    video.dispatchEvent(new Event("playing"))
    firstFrame(250)
    const container = { prepend: vi.fn() }
    expect(warm?.placeVideo(container as unknown as HTMLElement)).toBe(video)
    expect(container.prepend).toHaveBeenCalledWith(video)
    expect(shell.remove).toHaveBeenCalledOnce()
    expect(warm?.placeVideo(container as unknown as HTMLElement)).toBeUndefined()

    const facts: Array<MediaFact> = []
    const session = warm?.adopt(video as unknown as HTMLVideoElement, "/live/2/index.m3u8", false, (fact) => facts.push(fact))
    expect(session).toBeDefined()
    expect(facts).toEqual([{ type: "media.playing" }, { type: "media.firstFrame", ms: 250 }])
    video.dispatchEvent(new Event("pause"))
    expect(facts.at(-1)).toEqual({ type: "media.paused" })
    // once handed over, letting go changes nothing
    warm?.release()
    expect(FakeHls.instances[0]?.destroyed).toBe(false)
    expect(FakeHls.instances).toHaveLength(1)
  })

  it("stops its own session when the page wants another source or player", async () => {
    for (const [source, lowLatency] of [
      ["/live/1/index.m3u8", false],
      ["/live/2/index.m3u8", true]
    ] as const) {
      const { warm, video } = setup()
      await vi.waitFor(() => expect(FakeHls.instances).toHaveLength(1), WAIT)
      warm?.placeVideo({ prepend: vi.fn() } as unknown as HTMLElement)
      expect(warm?.adopt(video as unknown as HTMLVideoElement, source, lowLatency, () => undefined)).toBeUndefined()
      expect(FakeHls.instances[0]?.destroyed).toBe(true)
    }
  })

  it("lets go of everything when released before a hand-over", async () => {
    const { warm, shell, video } = setup()
    await vi.waitFor(() => expect(FakeHls.instances).toHaveLength(1), WAIT)
    warm?.release()
    expect(shell.remove).toHaveBeenCalledOnce()
    expect(FakeHls.instances[0]?.destroyed).toBe(true)
    expect(warm?.adopt(video as unknown as HTMLVideoElement, "/live/2/index.m3u8", false, () => undefined)).toBeUndefined()
    expect(await settledNow(warm?.settled)).toBe(true)
  })
})
