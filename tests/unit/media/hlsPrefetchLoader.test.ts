import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext, LoaderStats } from "hls.js"
import { describe, expect, it, vi } from "vitest"
import { prefetchingLoader } from "../../../src/adapters/media/hlsPrefetchLoader.ts"
import type { MediaPrefetch, Prefetched } from "../../../src/adapters/media/mediaPrefetch.ts"
import { WAIT } from "../../support/timeouts.ts"

const stats = (): LoaderStats => ({
  aborted: false,
  loaded: 0,
  retry: 0,
  total: 0,
  chunkCount: 0,
  bwEstimate: 0,
  loading: { start: 0, first: 0, end: 0 },
  parsing: { start: 0, end: 0 },
  buffering: { start: 0, first: 0, end: 0 }
})

/** The library's own loader, standing in: it records what it was asked to load. */
class NetworkLoader implements Loader<LoaderContext> {
  static loads: Array<string> = []
  context: LoaderContext | null = null
  stats = stats()
  load(context: LoaderContext) {
    this.context = context
    NetworkLoader.loads.push(context.url)
  }
  abort = vi.fn()
  destroy = vi.fn()
}

const prefetchOf = (answers: Record<string, Promise<Prefetched | null>>): MediaPrefetch => ({
  take: (url) => {
    const answer = answers[url]
    delete answers[url]
    return answer
  },
  startPosition: () => null,
  ready: Promise.resolve(),
  cancel: () => undefined
})

const callbacks = () =>
  ({ onSuccess: vi.fn(), onError: vi.fn(), onTimeout: vi.fn(), onAbort: vi.fn() }) satisfies LoaderCallbacks<LoaderContext>
const config = {} as LoaderConfiguration
const playlistContext = (url: string): LoaderContext => ({ url, responseType: "", type: "manifest" }) as LoaderContext
const segmentContext = (url: string, range = 0): LoaderContext =>
  ({ url, responseType: "arraybuffer", type: "media-fragment", rangeStart: 0, rangeEnd: range }) as LoaderContext
const found = (url: string, data: string | ArrayBuffer): Prefetched => ({ url, data, timing: { start: 10, first: 12, end: 20 } })

describe("the hls.js loader that answers from a prefetch", () => {
  it("serves a prefetched playlist and segment as loaded, with their sizes and times", async () => {
    const Loader = prefetchingLoader(
      NetworkLoader,
      prefetchOf({
        "/index.m3u8": Promise.resolve(found("/index.m3u8", "#EXTM3U")),
        "/seg/3.ts": Promise.resolve(found("/seg/3.ts", new ArrayBuffer(1024)))
      })
    )
    NetworkLoader.loads = []
    for (const [context, size] of [
      [playlistContext("/index.m3u8"), 7],
      [segmentContext("/seg/3.ts"), 1024]
    ] as const) {
      const loader = new Loader({} as HlsConfig)
      const answer = callbacks()
      loader.load(context, config, answer)
      await vi.waitFor(() => expect(answer.onSuccess).toHaveBeenCalledOnce(), WAIT)
      const [response, loadStats, given] = answer.onSuccess.mock.calls[0] ?? []
      expect(response.url).toBe(context.url)
      expect(loadStats).toBe(loader.stats)
      expect(loadStats).toMatchObject({ loaded: size, total: size, loading: { start: 10, first: 12, end: 20 } })
      expect(given).toBe(context)
      expect(loader.context).toBe(context)
    }
    expect(NetworkLoader.loads).toEqual([])
  })

  it("asks the network for what was not prefetched, failed, is of the wrong kind or is a byte range", async () => {
    const Loader = prefetchingLoader(
      NetworkLoader,
      prefetchOf({
        "/failed.m3u8": Promise.resolve(null),
        "/text.ts": Promise.resolve(found("/text.ts", "not bytes")),
        "/ranged.ts": Promise.resolve(found("/ranged.ts", new ArrayBuffer(8)))
      })
    )
    NetworkLoader.loads = []
    const contexts = [
      playlistContext("/other.m3u8"),
      playlistContext("/failed.m3u8"),
      segmentContext("/text.ts"),
      segmentContext("/ranged.ts", 100)
    ]
    for (const context of contexts) {
      const loader = new Loader({} as HlsConfig)
      const answer = callbacks()
      loader.load(context, config, answer)
      await vi.waitFor(() => expect(NetworkLoader.loads).toContain(context.url), WAIT)
      expect(answer.onSuccess).not.toHaveBeenCalled()
      expect(loader.context).toBe(context)
    }
  })

  it("reports an abort while the prefetch is still on its way, and never the late answer", async () => {
    let arrive: (value: Prefetched) => void = () => undefined
    const Loader = prefetchingLoader(NetworkLoader, prefetchOf({ "/slow.ts": new Promise((resolve) => (arrive = resolve)) }))
    const loader = new Loader({} as HlsConfig)
    const answer = callbacks()
    loader.load(segmentContext("/slow.ts"), config, answer)
    loader.abort()
    expect(answer.onAbort).toHaveBeenCalledOnce()
    expect(loader.stats.aborted).toBe(true)
    arrive(found("/slow.ts", new ArrayBuffer(8)))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(answer.onSuccess).not.toHaveBeenCalled()
  })
})
