import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { type AnalyticsItem, AnalyticsQueue } from "../../../src/adapters/telemetry/AnalyticsQueue.ts"
import type { AnalyticsFact } from "../../../src/domain/TelemetryProtocol.ts"
import { FakeServer } from "../../support/telemetryFakes.ts"

const item = (event: AnalyticsItem["params"]["event"] = "ping", position: number | Array<number> = 60): AnalyticsItem => ({
  params: { videoType: "live", siteGroupId: "streamhub", event },
  body: {
    session_id: "s1",
    sitegroup_id: "streamhub",
    media_id: "7",
    site_id: "web",
    player_id: "tv",
    video_type: "live",
    created: 0,
    position,
    player_version: "3.4.5",
    source: "hls",
    category: "",
    category_id: "",
    autoplay: true,
    muted: true,
    customer_user_id: "ann@example.com"
  }
})

describe("AnalyticsQueue", () => {
  let server: FakeServer
  let facts: Array<AnalyticsFact>
  let queue: AnalyticsQueue
  beforeEach(() => {
    vi.useFakeTimers()
    server = new FakeServer()
    facts = []
    queue = new AnalyticsQueue({ callApi: server.callApi, report: (fact) => facts.push(fact) })
  })
  afterEach(() => {
    queue.dispose()
    vi.useRealTimers()
  })

  it("posts to /api/analytics/{videoType}/{siteGroupId}/{event} with the body and the session", async () => {
    queue.enqueue(item("view", 0))
    await vi.advanceTimersByTimeAsync(0)
    const [request] = server.requests
    expect(request?.url).toBe("/api/analytics/live/streamhub/view")
    expect(request?.init.method).toBe("POST")
    expect(request?.init.headers).toMatchObject({ Token: "session-token" })
    expect(request?.body).toEqual(item("view", 0).body)
    server.answer(request)
    await vi.advanceTimersByTimeAsync(0)
    expect(facts).toEqual([{ type: "analytics.sent", event: "view" }])
  })

  it("keeps at most 3 requests open and 5 items waiting, dropping the rest", async () => {
    const accepted = Array.from({ length: 9 }, () => queue.enqueue(item()))
    await vi.advanceTimersByTimeAsync(0)
    expect(accepted).toEqual([true, true, true, true, true, true, true, true, false])
    expect(server.requests).toHaveLength(3)
    expect(queue.open).toBe(3)
    expect(queue.pending).toBe(5)
    expect(facts).toEqual([{ type: "analytics.dropped", event: "ping" }])

    server.answer(server.requests[0])
    await vi.advanceTimersByTimeAsync(0)
    expect(server.requests).toHaveLength(4)
    expect(queue.open).toBe(3)
    expect(queue.pending).toBe(4)
    expect(queue.enqueue(item())).toBe(true)
    expect(queue.enqueue(item())).toBe(false)
  })

  it("aborts a request after 4 s and counts it as a failure", async () => {
    queue.enqueue(item())
    await vi.advanceTimersByTimeAsync(3999)
    expect(server.requests[0]?.aborted()).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests[0]?.aborted()).toBe(true)
    expect(facts).toEqual([{ type: "analytics.failed", event: "ping", detail: "The analytics request timed out." }])
    expect(queue.open).toBe(0)
  })

  it("pauses for 5 s after more than 3 failures in a row", async () => {
    for (let i = 0; i < 3; i++) queue.enqueue(item())
    await vi.advanceTimersByTimeAsync(0)
    for (const request of server.requests) server.answer(request, 500, { success: false, status: 500, detail: "Internal server error" })
    await vi.advanceTimersByTimeAsync(0)
    expect(queue.suspended).toBe(false)
    queue.enqueue(item())
    await vi.advanceTimersByTimeAsync(0)
    server.answer(server.requests[3], 503, { success: false, status: 503, detail: "down" })
    await vi.advanceTimersByTimeAsync(0)
    expect(queue.suspended).toBe(true)
    expect(facts.filter((f) => f.type === "analytics.failed")).toHaveLength(4)
    expect(facts.at(-1)).toEqual({ type: "analytics.suspended", forMs: 5000 })

    queue.enqueue(item("display", 0))
    await vi.advanceTimersByTimeAsync(4999)
    expect(server.requests).toHaveLength(4)
    expect(queue.pending).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.requests).toHaveLength(5)
    expect(queue.suspended).toBe(false)
  })

  it("does not pause when a success breaks the run of failures", async () => {
    const fail = async () => {
      queue.enqueue(item())
      await vi.advanceTimersByTimeAsync(0)
      server.answer(server.requests.at(-1), 500, { success: false, status: 500, detail: "x" })
      await vi.advanceTimersByTimeAsync(0)
    }
    await fail()
    await fail()
    await fail()
    queue.enqueue(item())
    await vi.advanceTimersByTimeAsync(0)
    server.answer(server.requests.at(-1))
    await vi.advanceTimersByTimeAsync(0)
    await fail()
    await fail()
    await fail()
    expect(queue.suspended).toBe(false)
    await fail()
    expect(queue.suspended).toBe(true)
  })

  it("cancels open requests and forgets waiting items when disposed", async () => {
    for (let i = 0; i < 5; i++) queue.enqueue(item())
    await vi.advanceTimersByTimeAsync(0)
    queue.dispose()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(server.requests.every((request) => request.aborted())).toBe(true)
    expect(server.requests).toHaveLength(3)
    expect(queue.enqueue(item())).toBe(false)
    expect(facts).toEqual([])
  })
})
