// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest"
import { PREFETCH_TIMEOUT_MS, prefetchMedia } from "../../../src/adapters/media/mediaPrefetch.ts"

const PLAYLIST = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", ...[0, 1, 2, 3, 4, 5].flatMap((n) => ["#EXTINF:2,", `seg/${n}.ts`])].join("\n")

/** A server on paper: each URL answers as given, and every request is recorded. */
const fakeFetch = (answers: Record<string, { status?: number; body: string | ArrayBuffer; redirectTo?: string }>) => {
  const requested: Array<string> = []
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    requested.push(url)
    if (init?.signal?.aborted === true) throw new DOMException("aborted", "AbortError")
    const answer = answers[url]
    if (answer === undefined) return new Response("missing", { status: 404 })
    const response = new Response(answer.body, { status: answer.status ?? 200 })
    Object.defineProperty(response, "url", { value: answer.redirectTo ?? url })
    return response
  })
  return { fetch: fetch as unknown as typeof globalThis.fetch, requested }
}

afterEach(() => vi.useRealTimers())

describe("fetching a stream ahead of the player library", () => {
  it("fetches the playlist, then the segment playback starts with, and knows where that is", async () => {
    const segment = new Uint8Array([1, 2, 3]).buffer
    const server = fakeFetch({
      "http://localhost:3000/live/index.m3u8": { body: PLAYLIST },
      "http://localhost:3000/live/seg/3.ts": { body: segment }
    })
    const prefetch = prefetchMedia(server.fetch, "/live/index.m3u8", { segment: true })
    await prefetch.ready
    expect(server.requested).toEqual(["http://localhost:3000/live/index.m3u8", "http://localhost:3000/live/seg/3.ts"])
    // only meaningful to a library that parsed this very playlist
    expect(prefetch.startPosition()).toBeNull()
    const playlist = await prefetch.take("http://localhost:3000/live/index.m3u8")
    expect(playlist?.data).toBe(PLAYLIST)
    expect(playlist?.timing.end).toBeGreaterThanOrEqual(playlist?.timing.start ?? Number.NaN)
    expect(prefetch.startPosition()).toBe(7)
    const first = await prefetch.take("http://localhost:3000/live/seg/3.ts")
    expect(new Uint8Array(first?.data as ArrayBuffer)).toEqual(new Uint8Array([1, 2, 3]))
  })

  it("takes a playlist that came with the streams list instead of fetching it, and fetches the segment at once", async () => {
    const server = fakeFetch({ "http://localhost:3000/live/seg/3.ts": { body: new ArrayBuffer(2) } })
    const prefetch = prefetchMedia(server.fetch, "/live/index.m3u8?grant=g", {
      segment: true,
      playlist: { url: "/live/index.m3u8?grant=g", text: PLAYLIST }
    })
    await prefetch.ready
    expect(server.requested).toEqual(["http://localhost:3000/live/seg/3.ts"])
    expect((await prefetch.take("http://localhost:3000/live/index.m3u8?grant=g"))?.data).toBe(PLAYLIST)
    expect(prefetch.startPosition()).toBe(7)
    // another source's playlist is no use: this one is fetched as ever
    const other = fakeFetch({ "http://localhost:3000/b.m3u8": { body: PLAYLIST } })
    await prefetchMedia(other.fetch, "/b.m3u8", { segment: false, playlist: { url: "/a.m3u8", text: "#EXTM3U" } }).ready
    expect(other.requested).toEqual(["http://localhost:3000/b.m3u8"])
  })

  it("hands each answer out once and knows nothing else", async () => {
    const server = fakeFetch({ "http://localhost:3000/a.m3u8": { body: PLAYLIST } })
    const prefetch = prefetchMedia(server.fetch, "/a.m3u8", { segment: false })
    await prefetch.ready
    expect(prefetch.take("http://localhost:3000/a.m3u8")).toBeDefined()
    expect(prefetch.take("http://localhost:3000/a.m3u8")).toBeUndefined()
    expect(prefetch.take("http://localhost:3000/other.ts")).toBeUndefined()
    expect(server.requested).toHaveLength(1)
  })

  it("resolves segment URIs against where the playlist really came from", async () => {
    const server = fakeFetch({
      "http://localhost:3000/go.m3u8": { body: PLAYLIST, redirectTo: "http://cdn.example/x/index.m3u8" },
      "http://cdn.example/x/seg/3.ts": { body: new ArrayBuffer(4) }
    })
    const prefetch = prefetchMedia(server.fetch, "/go.m3u8", { segment: true })
    await prefetch.ready
    expect(server.requested.at(-1)).toBe("http://cdn.example/x/seg/3.ts")
    expect((await prefetch.take("http://localhost:3000/go.m3u8"))?.url).toBe("http://cdn.example/x/index.m3u8")
  })

  it("answers null for a failed fetch, so the library asks the network itself", async () => {
    const server = fakeFetch({ "http://localhost:3000/gone.m3u8": { status: 404, body: "" } })
    const prefetch = prefetchMedia(server.fetch, "/gone.m3u8", { segment: true })
    await prefetch.ready
    await expect(prefetch.take("http://localhost:3000/gone.m3u8")).resolves.toBeNull()
    expect(prefetch.startPosition()).toBeNull()
  })

  it("gives up on what has not arrived in time, and on everything when cancelled", async () => {
    vi.useFakeTimers()
    let signal: AbortSignal | undefined
    const hanging = vi.fn((_url: RequestInfo | URL, init?: RequestInit) => {
      signal = init?.signal ?? undefined
      return new Promise<Response>((_resolve, reject) =>
        signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))
      )
    })
    const prefetch = prefetchMedia(hanging as unknown as typeof globalThis.fetch, "/slow.m3u8", { segment: true })
    const answer = prefetch.take("http://localhost:3000/slow.m3u8")
    await vi.advanceTimersByTimeAsync(PREFETCH_TIMEOUT_MS)
    await expect(answer).resolves.toBeNull()
    expect(signal?.aborted).toBe(true)

    const other = prefetchMedia(hanging as unknown as typeof globalThis.fetch, "/slow.m3u8", { segment: true })
    other.cancel()
    expect(signal?.aborted).toBe(true)
    expect(other.take("http://localhost:3000/slow.m3u8")).toBeUndefined()
  })
})
