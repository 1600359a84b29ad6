import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, sendTo, setup } from "xstate"
import type { AnalyticsItem } from "../../../src/adapters/telemetry/AnalyticsQueue.ts"
import { AnalyticsTracker } from "../../../src/adapters/telemetry/AnalyticsTracker.ts"
import { createAnalyticsActor } from "../../../src/adapters/telemetry/analyticsActor.ts"
import { isAtEnd, sliceOf, VodProgress } from "../../../src/adapters/telemetry/VodProgress.ts"
import type { AnalyticsCommand, AnalyticsMedia } from "../../../src/domain/TelemetryProtocol.ts"
import { FakeServer, fakeClock } from "../../support/telemetryFakes.ts"

const media = (overrides: Partial<AnalyticsMedia> = {}): AnalyticsMedia => ({
  media_id: "7",
  site_id: "web",
  sitegroup_id: "streamhub",
  player_id: "tv",
  category: "sports",
  category_id: "1",
  source: "hls",
  customer_user_id: "ann@example.com",
  live: false,
  autoplay: true,
  ...overrides
})

describe("VOD slice arithmetic", () => {
  it("cuts the duration into 100 equal slices, 0 to 99", () => {
    expect(sliceOf(0, 200)).toBe(0)
    expect(sliceOf(1.99, 200)).toBe(0)
    expect(sliceOf(2, 200)).toBe(1)
    expect(sliceOf(199.9, 200)).toBe(99)
    expect(sliceOf(200, 200)).toBe(99)
    expect(sliceOf(-1, 200)).toBe(0)
  })

  it("detects the end within 0.25 s of the duration", () => {
    expect(isAtEnd(99.75, 100)).toBe(true)
    expect(isAtEnd(99.74, 100)).toBe(false)
    const progress = new VodProgress()
    progress.observe(60.8, 61)
    expect(progress.takeFresh()).toEqual([99])
  })

  it("marks the slices played through, not the ones a seek jumps over", () => {
    const progress = new VodProgress()
    progress.observe(0, 10)
    progress.observe(0.5, 10)
    progress.observe(1, 10)
    expect(progress.takeFresh()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    progress.observe(5, 10)
    expect(progress.takeFresh()).toEqual([50])
    progress.observe(1.05, 10)
    expect(progress.takeFresh()).toEqual([])
    expect(progress.reached.size).toBe(12)
  })

  it("ignores positions without a usable duration (live, not loaded yet)", () => {
    const progress = new VodProgress()
    progress.observe(10, Number.POSITIVE_INFINITY)
    progress.observe(10, Number.NaN)
    progress.observe(10, 0)
    expect(progress.hasFresh).toBe(false)
  })
})

describe("AnalyticsTracker", () => {
  let sent: Array<AnalyticsItem>
  let tracker: AnalyticsTracker
  const clock = fakeClock()
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 15, 12) })
    sent = []
    clock.setOffset(0)
    tracker = new AnalyticsTracker({ queue: { enqueue: (item) => sent.push(item) > 0 }, clock, sessionId: "player-session" })
  })
  afterEach(() => {
    tracker.dispose()
    vi.useRealTimers()
  })
  const events = () => sent.map((item) => [item.params.event, item.body.position])

  it("sends display once per media and view once when its playback first starts", () => {
    clock.setOffset(1500)
    tracker.load(media(), true)
    tracker.load(media())
    tracker.play()
    tracker.pause()
    tracker.play()
    expect(events()).toEqual([
      ["display", 0],
      ["view", 0]
    ])
    expect(sent[0]?.params).toEqual({ videoType: "vod", siteGroupId: "streamhub", event: "display" })
    expect(sent[0]?.body).toEqual({
      session_id: "player-session",
      sitegroup_id: "streamhub",
      media_id: "7",
      site_id: "web",
      player_id: "tv",
      video_type: "vod",
      created: Date.now() + 1500,
      position: 0,
      player_version: "3.4.5",
      source: "hls",
      category: "sports",
      category_id: "1",
      autoplay: true,
      muted: true,
      customer_user_id: "ann@example.com"
    })
    tracker.load(media({ media_id: "8" }))
    tracker.play()
    expect(events()).toEqual([
      ["display", 0],
      ["view", 0],
      ["display", 0],
      ["view", 0]
    ])
  })

  it("pings newly reached VOD slices at most once per 6 s, the rest after the throttle", async () => {
    tracker.load(media())
    tracker.play()
    tracker.progress(0, 100)
    expect(events().at(-1)).toEqual(["ping", [0]])
    tracker.progress(1, 100)
    tracker.progress(2, 100)
    expect(sent).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(5999)
    expect(sent).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(1)
    expect(events().at(-1)).toEqual(["ping", [1, 2]])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(sent).toHaveLength(4)
    tracker.progress(2.5, 100)
    expect(sent).toHaveLength(4)
    tracker.progress(3, 100)
    expect(events().at(-1)).toEqual(["ping", [3]])
  })

  it("reports slice 99 at the end of the video", async () => {
    tracker.load(media())
    tracker.play()
    tracker.progress(99.5, 100)
    tracker.progress(99.8, 100)
    await vi.advanceTimersByTimeAsync(6000)
    expect(events().slice(2)).toEqual([["ping", [99]]])
  })

  it("pings live once per 60 s of playing, adding 60 s per tick", async () => {
    tracker.load(media({ live: true }))
    tracker.play()
    await vi.advanceTimersByTimeAsync(59_999)
    expect(sent).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(events().at(-1)).toEqual(["ping", 60])
    expect(sent.at(-1)?.params).toEqual({ videoType: "live", siteGroupId: "streamhub", event: "ping" })
    await vi.advanceTimersByTimeAsync(120_000)
    expect(events().slice(2)).toEqual([
      ["ping", 60],
      ["ping", 120],
      ["ping", 180]
    ])
  })

  it("counts only playing time toward the live minute", async () => {
    tracker.load(media({ live: true }))
    tracker.play()
    await vi.advanceTimersByTimeAsync(40_000)
    tracker.pause()
    await vi.advanceTimersByTimeAsync(300_000)
    expect(sent).toHaveLength(2)
    tracker.play()
    await vi.advanceTimersByTimeAsync(19_999)
    expect(sent).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(events().at(-1)).toEqual(["ping", 60])
  })

  it("switches to VOD slices when the same media turns out not to be live", async () => {
    tracker.load(media({ live: true }))
    tracker.play()
    await vi.advanceTimersByTimeAsync(30_000)
    tracker.load(media({ live: false }))
    // no live minute any more, and no second display or view for the same media
    await vi.advanceTimersByTimeAsync(60_000)
    expect(events()).toEqual([
      ["display", 0],
      ["view", 0]
    ])
    tracker.progress(0, 100)
    expect(events().at(-1)).toEqual(["ping", [0]])
    expect(sent.at(-1)?.params).toEqual({ videoType: "vod", siteGroupId: "streamhub", event: "ping" })
  })

  it("starts the live minute when the same media turns out to be live while it plays", async () => {
    tracker.load(media({ live: false }))
    tracker.play()
    tracker.load(media({ live: true }))
    tracker.progress(5, 100)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(events()).toEqual([
      ["display", 0],
      ["view", 0],
      ["ping", 60]
    ])
  })

  it("starts counting again for another media and sends the old one's last slices", () => {
    tracker.load(media())
    tracker.play()
    tracker.progress(0, 100)
    tracker.progress(1, 100)
    tracker.load(media({ media_id: "8", live: true }))
    expect(events().slice(2)).toEqual([
      ["ping", [0]],
      ["ping", [1]],
      ["display", 0]
    ])
    expect(sent[3]?.body.media_id).toBe("7")
  })
})

describe("createAnalyticsActor", () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it("takes commands, posts through the queue and reports queue facts", async () => {
    const server = new FakeServer()
    const facts: Array<{ type: string }> = []
    const parent = createActor(
      setup({
        types: { events: {} as { type: "command"; command: AnalyticsCommand } | { type: `analytics.${string}` } },
        actors: { analytics: createAnalyticsActor({ callApi: server.callApi, clock: fakeClock() }) }
      }).createMachine({
        invoke: { id: "analytics", src: "analytics", input: { sessionId: "s" } },
        on: {
          command: { actions: sendTo("analytics", ({ event }) => (event as { command: AnalyticsCommand }).command) },
          "analytics.*": { actions: ({ event }) => facts.push(event) }
        }
      })
    ).start()
    parent.send({ type: "command", command: { type: "analytics.load", media: media({ live: true, player_id: "lls" }), muted: false } })
    parent.send({ type: "command", command: { type: "analytics.play" } })
    await vi.advanceTimersByTimeAsync(0)
    expect(server.requests.map((r) => r.url)).toEqual(["/api/analytics/live/streamhub/display", "/api/analytics/live/streamhub/view"])
    server.answer(server.requests[0])
    await vi.advanceTimersByTimeAsync(0)
    expect(facts).toEqual([{ type: "analytics.sent", event: "display" }])
    parent.stop()
    expect(server.requests[1]?.aborted()).toBe(true)
  })
})
