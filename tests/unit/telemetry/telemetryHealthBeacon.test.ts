import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, sendTo, setup } from "xstate"
import { HealthBeacon, type HealthBeaconDeps } from "../../../src/adapters/telemetry/HealthBeacon.ts"
import { createHealthActor, type PageLifecycle } from "../../../src/adapters/telemetry/healthActor.ts"
import { decodeWith } from "../../../src/domain/decode.ts"
import { HealthEvents } from "../../../src/domain/Telemetry.ts"
import { HEALTH_EVENTS_PER_REQUEST, HEALTH_ID_MAX_LENGTH, HEALTH_URL_MAX_LENGTH } from "../../../src/domain/TelemetryLimits.ts"
import type { HealthCommand, HealthFact } from "../../../src/domain/TelemetryProtocol.ts"
import { fakeClock } from "../../support/telemetryFakes.ts"

const context = {
  session_id: "player-session",
  device_id: "device-1",
  version: "3.4.5",
  source: "hls",
  page_url: "/playertv?default=0",
  ids: { media_id: "1", site_id: "web", sitegroup_id: "default", player_id: "tv" },
  plugins: ["health", "time-sync"]
}

/** Beacons land here, decoded; `accept` false makes sendBeacon refuse like a full browser queue. */
const beacons = () => {
  const sent: Array<{ url: string; type: string; token?: string; events: Array<Record<string, unknown>> }> = []
  const pending: Array<Promise<void>> = []
  let accept = true
  const sendBeacon = vi.fn((url: string, data: Blob) => {
    if (!accept) return false
    pending.push(
      data.text().then((text) => void sent.push({ url, type: data.type, ...(JSON.parse(text) as { token?: string; events: [] }) }))
    )
    return true
  })
  return {
    sent,
    sendBeacon,
    refuse: () => {
      accept = false
    },
    settle: () => Promise.all(pending)
  }
}

describe("HealthBeacon", () => {
  let out: ReturnType<typeof beacons>
  let fetch: ReturnType<typeof vi.fn<typeof globalThis.fetch>>
  let beacon: HealthBeacon
  const clock = fakeClock()
  const make = (overrides: Partial<HealthBeaconDeps> = {}, health: typeof context = context) =>
    new HealthBeacon({ clock, sendBeacon: out.sendBeacon, fetch, getToken: () => "session-token", ...overrides }, health)

  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 15, 12) })
    clock.setOffset(250)
    out = beacons()
    fetch = vi.fn<typeof globalThis.fetch>(async () => new Response("{}"))
    beacon = make()
  })
  afterEach(() => {
    beacon.dispose()
    vi.useRealTimers()
  })

  it("flushes 2 s after the first event, by beacon to /api/health-events as text/plain JSON carrying the session", async () => {
    beacon.record("play", 0)
    await vi.advanceTimersByTimeAsync(1000)
    beacon.record("pause", 1.5)
    await vi.advanceTimersByTimeAsync(999)
    expect(out.sendBeacon).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await out.settle()
    expect(out.sent).toHaveLength(1)
    expect(out.sent[0]?.url).toBe("/api/health-events")
    expect(out.sent[0]?.type).toBe("text/plain;charset=utf-8")
    // a beacon cannot set the Token header: the session token travels in the body
    expect(out.sent[0]?.token).toBe("session-token")
    const start = Date.UTC(2026, 0, 15, 12)
    expect(out.sent[0]?.events).toEqual([
      { ...context, event: "play", current_time: 0, client_time: start, adjusted_time: start + 250 },
      { ...context, event: "pause", current_time: 1.5, client_time: start + 1000, adjusted_time: start + 1250 }
    ])
  })

  it("flushes at once when 10 events wait", async () => {
    for (let i = 0; i < 9; i++) beacon.record("waiting", i)
    expect(out.sendBeacon).not.toHaveBeenCalled()
    beacon.record("waiting", 9)
    expect(out.sendBeacon).toHaveBeenCalledTimes(1)
    await out.settle()
    expect(out.sent[0]?.events).toHaveLength(10)
    expect(beacon.queued).toBe(0)
    await vi.advanceTimersByTimeAsync(5000)
    expect(out.sendBeacon).toHaveBeenCalledTimes(1)
  })

  it("debounces volume and resize events by 800 ms, keeping the last of a burst", async () => {
    beacon.record("volumechange", 1)
    await vi.advanceTimersByTimeAsync(500)
    beacon.record("volumechange", 2)
    beacon.record("resize", 2)
    await vi.advanceTimersByTimeAsync(799)
    expect(beacon.queued).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(beacon.queued).toBe(2)
    await vi.advanceTimersByTimeAsync(2000)
    await out.settle()
    expect(out.sent[0]?.events.map((e) => [e.event, e.current_time])).toEqual([
      ["volumechange", 2],
      ["resize", 2]
    ])
  })

  it("keeps a time update at most every 5 s", async () => {
    beacon.record("timeupdate", 0)
    await vi.advanceTimersByTimeAsync(4999)
    beacon.record("timeupdate", 5)
    await vi.advanceTimersByTimeAsync(1)
    beacon.record("timeupdate", 5)
    beacon.flush()
    await out.settle()
    expect(out.sent.flatMap((b) => b.events.map((e) => e.current_time))).toEqual([0, 5])
  })

  it("falls back to a keepalive fetch with the session when the beacon is refused or missing", async () => {
    out.refuse()
    beacon.record("error", 3)
    beacon.flush()
    expect(fetch).toHaveBeenCalledTimes(1)
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe("/api/health-events")
    expect(init).toMatchObject({ method: "POST", keepalive: true, headers: { "Content-Type": "application/json", Token: "session-token" } })
    expect(JSON.parse(String(init?.body))).toMatchObject({ token: "session-token", events: [expect.objectContaining({ event: "error" })] })

    const withoutBeacon = make({ sendBeacon: undefined, getToken: () => null })
    withoutBeacon.record("error", 1)
    withoutBeacon.flush()
    expect(fetch.mock.calls[1]?.[1]?.headers).toEqual({ "Content-Type": "application/json" })
    expect(JSON.parse(String(fetch.mock.calls[1]?.[1]?.body))).not.toHaveProperty("token")
  })

  it("keeps every request within the server's limits, clipping an unusually long URL or id", async () => {
    const long = make(
      {},
      {
        ...context,
        page_url: `https://example.com/playertv?${"q".repeat(HEALTH_URL_MAX_LENGTH)}`,
        source: `https://cdn.example.com/${"s".repeat(HEALTH_URL_MAX_LENGTH)}.m3u8`,
        device_id: "d".repeat(HEALTH_ID_MAX_LENGTH + 10)
      }
    )
    for (let i = 0; i < HEALTH_EVENTS_PER_REQUEST + 5; i++) long.record("waiting", i)
    long.flush()
    await out.settle()
    expect(out.sent.map((b) => b.events.length)).toEqual([10, 10, 10, 10, 10, 5])
    for (const body of out.sent) expect(decodeWith(HealthEvents)(body)).toMatchObject({ ok: true })
    expect(out.sent[0]?.events[0]).toMatchObject({ page_url: expect.stringMatching(/^https:\/\/example\.com\/playertv\?q+$/) })
    expect(String(out.sent[0]?.events[0]?.page_url)).toHaveLength(HEALTH_URL_MAX_LENGTH)
    expect(String(out.sent[0]?.events[0]?.device_id)).toHaveLength(HEALTH_ID_MAX_LENGTH)
    long.dispose()
  })

  it("sends what waits, pending debounced events included, when disposed", async () => {
    beacon.record("play", 0)
    beacon.record("resize", 0)
    beacon.dispose()
    await out.settle()
    expect(out.sent[0]?.events.map((e) => e.event)).toEqual(["play", "resize"])
    await vi.advanceTimersByTimeAsync(5000)
    expect(out.sendBeacon).toHaveBeenCalledTimes(1)
  })
})

describe("createHealthActor", () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  const fakePage = () => {
    const document = Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState })
    return { window: new EventTarget(), document } satisfies PageLifecycle
  }

  it("records on command and flushes on pagehide and on visibilitychange to hidden", async () => {
    const out = beacons()
    const page = fakePage()
    const facts: Array<HealthFact> = []
    const parent = createActor(
      setup({
        types: { events: {} as HealthFact | { type: "command"; command: HealthCommand } },
        actors: { health: createHealthActor({ clock: fakeClock(), sendBeacon: out.sendBeacon, fetch: vi.fn(), page }) }
      }).createMachine({
        invoke: { id: "health", src: "health", input: context },
        on: {
          command: { actions: sendTo("health", ({ event }) => (event as { command: HealthCommand }).command) },
          "health.flushed": { actions: ({ event }) => facts.push(event) }
        }
      })
    ).start()
    const record = (event: string) => parent.send({ type: "command", command: { type: "health.record", event, currentTime: 1 } })

    record("play")
    page.window.dispatchEvent(new Event("pagehide"))
    expect(facts).toEqual([{ type: "health.flushed", count: 1, transport: "beacon" }])
    record("pause")
    page.document.dispatchEvent(new Event("visibilitychange"))
    expect(facts).toHaveLength(1)
    page.document.visibilityState = "hidden"
    page.document.dispatchEvent(new Event("visibilitychange"))
    expect(facts).toHaveLength(2)

    record("ended")
    parent.stop()
    expect(out.sendBeacon).toHaveBeenCalledTimes(3)
    page.window.dispatchEvent(new Event("pagehide"))
    expect(out.sendBeacon).toHaveBeenCalledTimes(3)
  })
})
