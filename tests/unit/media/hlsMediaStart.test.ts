// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest"
import { epochOf, positionOf } from "../../../src/adapters/media/hlsMediaEngine.ts"
import { prefetchMedia } from "../../../src/adapters/media/mediaPrefetch.ts"
import { FakeHls } from "../../support/FakeHls.ts"
import { deps, flush, hls, run } from "../../support/hlsMediaVideo.ts"

const T0 = Date.parse("2026-11-23T19:00:00.000Z")
/** Ten 2 s fragments from T0, dated the way hls.js dates them (every one, from the tags it read). */
const fragments = Array.from({ length: 10 }, (_, index) => ({ start: index * 2, duration: 2, programDateTime: T0 + index * 2000 }))
const dated = (fake: FakeHls) => {
  fake.levels = [{ height: 720, details: { live: true, edge: 20, fragmentStart: 0, fragments } }]
  fake.emit(FakeHls.Events.MANIFEST_PARSED, { levels: fake.levels })
}

describe("a start at a moment of the window, and the wall clock of the picture", () => {
  it("maps the media timeline to the wall clock by the fragments' program date times", () => {
    expect(epochOf(fragments, 7)).toBe(T0)
    expect(epochOf([], 7)).toBeUndefined()
    expect(epochOf([{ start: 0, duration: 2, programDateTime: null }], 1)).toBeUndefined()
    expect(positionOf(fragments, T0 + 7_500)).toBe(7.5)
    expect(positionOf(fragments, T0 - 1)).toBeNull()
    expect(positionOf(fragments, T0 + 20_000)).toBeNull()
    // a date that does not follow on from the durations (a discontinuity): the fragment's own date decides
    const jumped = [
      ...fragments.slice(0, 5),
      ...fragments.slice(5).map((fragment) => ({ ...fragment, programDateTime: fragment.programDateTime + 60_000 }))
    ]
    expect(positionOf(jumped, T0 + 71_000)).toBe(11)
  })

  it("starts loading where the playlist's dates put the moment asked for, and says when they put it nowhere", async () => {
    const { command, reported } = run(deps(), { lowLatency: false })
    command({ type: "media.load", source: "/live/demo1/index.m3u8", startAt: T0 + 9_000 })
    await flush()
    expect(hls().config.autoStartLoad).toBe(false)
    dated(hls())
    expect(hls().startPositions).toEqual([9])
    expect(reported()).toEqual([])

    command({ type: "media.load", source: "/live/demo1/index.m3u8", startAt: T0 - 60_000 })
    await flush()
    dated(hls(1))
    expect(hls(1).startPositions).toEqual([-1])
    expect(reported()).toEqual([{ type: "media.startMissed" }])

    // a moment still to come (a reminder's link opened before the start) plays live, nothing missed
    command({ type: "media.load", source: "/live/demo1/index.m3u8", startAt: T0 + 20_000 })
    await flush()
    dated(hls(2))
    expect(hls(2).startPositions).toEqual([-1])
    expect(reported()).toEqual([{ type: "media.startMissed" }])
  })

  it("reports the wall clock of media time 0 with the timing, once the playlist has dates", async () => {
    const { command, facts, video } = run(deps(), { lowLatency: false })
    command({ type: "media.load", source: "/live/demo1/index.m3u8" })
    await flush()
    dated(hls())
    hls().currentLevel = 0
    video.currentTime = 13
    command({ type: "media.probe" })
    expect(facts.at(-1)).toEqual({ type: "media.timing", currentTime: 13, start: 0, end: 20, live: true, latency: 7, epoch: T0 })
  })

  it("plays at the rate asked for, and a new source at normal speed", async () => {
    const { command, video } = run(deps(), { lowLatency: false })
    const element = video as unknown as { playbackRate: number }
    command({ type: "media.load", source: "/a.m3u8" })
    command({ type: "media.rate", rate: 1.1 })
    expect(element.playbackRate).toBe(1.1)
    command({ type: "media.load", source: "/b.m3u8" })
    expect(element.playbackRate).toBe(1)
  })

  it("prefetches the segment holding the moment, not the live one", async () => {
    const playlist = [
      "#EXTM3U",
      "#EXT-X-TARGETDURATION:2",
      `#EXT-X-PROGRAM-DATE-TIME:${new Date(T0).toISOString()}`,
      ...[0, 1, 2, 3, 4, 5].flatMap((n) => ["#EXTINF:2,", `seg/${n}.ts`])
    ].join("\n")
    const requested: Array<string> = []
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      requested.push(String(input))
      return new Response(String(input).endsWith(".m3u8") ? playlist : new ArrayBuffer(1))
    }) as unknown as typeof globalThis.fetch
    const prefetch = prefetchMedia(fetch, "/live/index.m3u8", { segment: true, startAt: T0 + 3_000 })
    await prefetch.ready
    expect(requested).toEqual(["http://localhost:3000/live/index.m3u8", "http://localhost:3000/live/seg/1.ts"])
  })
})
