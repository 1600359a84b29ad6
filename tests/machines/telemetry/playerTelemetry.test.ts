import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { fromPromise } from "xstate"
import { createAnalyticsActor } from "../../../src/adapters/telemetry/analyticsActor.ts"
import { createHealthActor } from "../../../src/adapters/telemetry/healthActor.ts"
import { HEALTH_DEBOUNCE_MS, HEALTH_FLUSH_MS, PING_THROTTLE_MS } from "../../../src/domain/TelemetryLimits.ts"
import type {
  AnalyticsCommand,
  HealthCommand,
  HealthContext,
  MeteringCommand,
  PlayerGrant,
  TelemetrySession
} from "../../../src/domain/TelemetryProtocol.ts"
import { selectPlaybackError } from "../../../src/machines/player/playerPlaybackMachine.ts"
import { playerTelemetryMachine } from "../../../src/machines/telemetry/playerTelemetryMachine.ts"
import { fakeAdapter, liveTiming, startPlayer } from "../../support/playerHarness.ts"
import { FakeServer, fakeClock } from "../../support/telemetryFakes.ts"

const session = (grant: PlayerGrant | null): TelemetrySession => ({
  grant,
  sessionId: "s-1",
  deviceId: "d-1",
  pageUrl: "http://localhost/player?default=2"
})

interface TelemetryOptions {
  readonly playing?: boolean
  /** the real analytics adapter instead of a fake */
  readonly analyticsLogic?: ReturnType<typeof createAnalyticsActor>
  /** the real health beacon instead of a fake */
  readonly healthLogic?: ReturnType<typeof createHealthActor>
}

const withTelemetry = async (grant: PlayerGrant | null, { playing = true, analyticsLogic, healthLogic }: TelemetryOptions = {}) => {
  const analytics = fakeAdapter<AnalyticsCommand, { sessionId: string }>()
  const health = fakeAdapter<HealthCommand, HealthContext>()
  const metering = fakeAdapter<MeteringCommand, PlayerGrant>()
  const timeSync = fakeAdapter<{ type: string }, unknown>()
  const telemetry = playerTelemetryMachine.provide({
    actors: {
      openSession: fromPromise(async (): Promise<TelemetrySession | null> => session(grant)),
      analytics: analyticsLogic ?? analytics.logic,
      health: healthLogic ?? health.logic,
      metering: metering.logic,
      timeSync: timeSync.logic
    }
  })
  const started = await startPlayer({ player: 1, telemetry })
  await started.attach()
  if (playing) {
    started.send({ type: "media.playing" })
    await vi.advanceTimersByTimeAsync(0)
  }
  return { ...started, analytics, health, metering, timeSync }
}

const granted: PlayerGrant = { token: "pt-1", analytics: true, noMetering: false }

describe("playerMachine: telemetry", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("waits for the picture, so that none of its calls compete with the first frame", async () => {
    const { analytics, health, timeSync, send } = await withTelemetry(granted, { playing: false })
    send({ type: "media.waiting" })
    await vi.advanceTimersByTimeAsync(1000)
    expect([analytics.inputs, health.inputs, timeSync.inputs]).toEqual([[], [], []])
    // trouble before any picture counts too
    send({ type: "media.fault", kind: "network", code: 2, message: "A network error occurred" })
    await vi.advanceTimersByTimeAsync(0)
    expect(timeSync.inputs).toHaveLength(1)
    expect(health.commands).toEqual([{ type: "health.record", event: "error", currentTime: 0 }])
  })

  it("sends analytics for what plays, as the token allows", async () => {
    const { analytics, timeSync, send } = await withTelemetry(granted)
    expect(timeSync.inputs).toHaveLength(1)
    expect(analytics.inputs).toEqual([{ sessionId: "s-1" }])
    expect(analytics.commands[0]).toMatchObject({
      type: "analytics.load",
      media: { media_id: "3", player_id: "tv", sitegroup_id: "default", source: "/live/3/index.m3u8", live: true }
    })
    send(liveTiming({ currentTime: 12, end: 20 }))
    send({ type: "media.paused" })
    expect(analytics.commands.slice(1)).toEqual([
      { type: "analytics.play" },
      { type: "analytics.progress", position: 12, duration: 20 },
      { type: "analytics.pause" }
    ])
    send({ type: "player.select", index: 3 })
    expect(analytics.commands.at(-1)).toMatchObject({ type: "analytics.load", media: { media_id: "4" } })
  })

  it("tells analytics again once the timing shows the source is a VOD, and only when that changes", async () => {
    const { analytics, send } = await withTelemetry(granted)
    const loads = () => analytics.sent("analytics.load").map((command) => command.media.live)
    expect(loads()).toEqual([true])
    send(liveTiming())
    expect(loads()).toEqual([true])
    send(liveTiming({ currentTime: 1, start: 0, end: 600, live: false, latency: null }))
    send(liveTiming({ currentTime: 2, start: 0, end: 600, live: false, latency: null }))
    expect(loads()).toEqual([true, false])
    expect(analytics.sent("analytics.load").at(-1)?.media).toMatchObject({ media_id: "3", source: "/live/3/index.m3u8" })
    expect(analytics.sent("analytics.progress").at(-1)).toEqual({ type: "analytics.progress", position: 2, duration: 600 })
  })

  it("reports a VOD's progress as 100 slices, pinged at most every 6 s", async () => {
    const server = new FakeServer()
    const analyticsLogic = createAnalyticsActor({ callApi: server.callApi, clock: fakeClock() })
    const { send } = await withTelemetry(granted, { playing: false, analyticsLogic })
    const vod = (currentTime: number) => send(liveTiming({ currentTime, start: 0, end: 200, live: false, latency: null }))
    const answerAll = async () => {
      await vi.advanceTimersByTimeAsync(0)
      for (const request of server.open) server.answer(request)
      await vi.advanceTimersByTimeAsync(0)
    }
    vod(0)
    send({ type: "media.playing" })
    await answerAll()
    vod(1)
    vod(2)
    vod(3)
    await answerAll()
    await vi.advanceTimersByTimeAsync(PING_THROTTLE_MS)
    await answerAll()
    expect(server.requests.map((request) => request.url)).toEqual([
      "/api/analytics/vod/default/display",
      "/api/analytics/vod/default/view",
      "/api/analytics/vod/default/ping",
      "/api/analytics/vod/default/ping"
    ])
    expect(server.requests.slice(2).map((request) => (request.body as { position: unknown }).position)).toEqual([[0], [1]])
  })

  it("meters the first playback, then each stream played after it", async () => {
    const { metering, send } = await withTelemetry({ ...granted, analytics: false })
    expect(metering.inputs).toEqual([{ token: "pt-1", analytics: false, noMetering: false }])
    send({ type: "media.paused" })
    send({ type: "media.playing" })
    expect(metering.commands).toEqual([])
    send({ type: "player.select", index: 3 })
    send({ type: "media.playing" })
    expect(metering.commands).toEqual([{ type: "metering.record" }])
  })

  it("reports nothing to analytics or metering without a player token, but still sends health events", async () => {
    const { analytics, metering, health } = await withTelemetry(null)
    expect(analytics.inputs).toEqual([])
    expect(metering.inputs).toEqual([])
    expect(health.commands).toEqual([{ type: "health.record", event: "playing", currentTime: 0 }])
  })

  it("keeps one health beacon per stream, reporting the media's events where the playhead is", async () => {
    const { health, send } = await withTelemetry(granted)
    expect(health.inputs).toEqual([
      {
        session_id: "s-1",
        device_id: "d-1",
        version: "3.4.5",
        source: "/live/3/index.m3u8",
        page_url: "http://localhost/player?default=2",
        ids: { media_id: "3", site_id: "web", sitegroup_id: "default", player_id: "tv" },
        plugins: ["analytics", "metering", "health", "time-sync"]
      }
    ])
    send(liveTiming({ currentTime: 7.5 }))
    send({ type: "media.waiting" })
    expect(health.commands).toEqual([
      { type: "health.record", event: "playing", currentTime: 0 },
      { type: "health.record", event: "timeupdate", currentTime: 7.5 },
      { type: "health.record", event: "waiting", currentTime: 7.5 }
    ])
    send({ type: "player.select", index: 3 })
    expect(health.stopped()).toBe(1)
    expect(health.inputs.at(-1)?.source).toBe("/live/4/index.m3u8")
  })

  it("reports volume changes and player resizes as health events", async () => {
    const { health, send } = await withTelemetry(granted)
    send({ type: "media.volumeChanged" })
    send({ type: "screen.resized", width: 480 })
    expect(health.commands.slice(1)).toEqual([
      { type: "health.record", event: "volumechange", currentTime: 0 },
      { type: "health.record", event: "resize", currentTime: 0 }
    ])
  })

  it(`sends only the last of a burst of volume changes or resizes, ${HEALTH_DEBOUNCE_MS} ms after it, with ids and plugins`, async () => {
    const beacons: Array<Array<Record<string, unknown>>> = []
    const pending: Array<Promise<unknown>> = []
    const sendBeacon = (_url: string, data: Blob) => {
      pending.push(data.text().then((text) => beacons.push((JSON.parse(text) as { events: Array<Record<string, unknown>> }).events)))
      return true
    }
    const healthLogic = createHealthActor({ clock: fakeClock(), fetch: vi.fn(), sendBeacon })
    const { send } = await withTelemetry({ ...granted, noMetering: true }, { playing: false, healthLogic })
    send(liveTiming({ currentTime: 40 }))
    send({ type: "media.playing" })
    await vi.advanceTimersByTimeAsync(0)
    for (const width of [900, 700, 500]) {
      send({ type: "screen.resized", width })
      send({ type: "media.volumeChanged" })
      await vi.advanceTimersByTimeAsync(HEALTH_DEBOUNCE_MS - 100)
    }
    send(liveTiming({ currentTime: 42.5 }))
    send({ type: "media.volumeChanged" })
    await vi.advanceTimersByTimeAsync(HEALTH_DEBOUNCE_MS + HEALTH_FLUSH_MS)
    await Promise.all(pending)
    const events = beacons.flat()
    // one resize for three, one volume change for four, each where the playhead was at the last of them
    expect(events.map((event) => [event.event, event.current_time])).toEqual([
      ["playing", 40],
      ["timeupdate", 42.5],
      ["resize", 40],
      ["volumechange", 42.5]
    ])
    expect(events[2]).toMatchObject({
      ids: { media_id: "3", site_id: "web", sitegroup_id: "default", player_id: "tv" },
      plugins: ["analytics", "health", "time-sync"]
    })
  })

  it("stops the player with the token error when the server refuses the player token", async () => {
    const { metering, child } = await withTelemetry(granted)
    metering.report({ type: "telemetry.tokenRejected", error: "token", message: "The token online validation failed" })
    expect(selectPlaybackError(child("playback"))).toEqual({ code: null, message: "The token online validation failed" })
  })
})
