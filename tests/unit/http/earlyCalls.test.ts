import { describe, expect, it, vi } from "vitest"
import { startEarlyCalls } from "../../../src/adapters/http/earlyCalls.ts"
import { MAINTENANCE_ROUTE, STREAMS_ROUTE } from "../../../src/domain/startupRoutes.ts"

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

describe("start-up calls sent ahead of the app", () => {
  it("sends each call once, as the app would, and lets both the warm start and the app read the answer", async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) =>
      String(url) === "/api/maintenance" ? json({ maintenanceMode: false }) : json({ success: true, data: [] })
    )
    const early = startEarlyCalls(fetch as unknown as typeof globalThis.fetch, "t-1", [MAINTENANCE_ROUTE, STREAMS_ROUTE])
    expect(
      fetch.mock.calls.map(([url, init]) => [
        url,
        init?.method,
        (init?.headers as Record<string, string> | undefined)?.Token,
        init?.credentials
      ])
    ).toEqual([
      ["/api/maintenance", "GET", "t-1", "include"],
      ["/api/streams/all", "GET", "t-1", "include"]
    ])
    await expect(early.json(STREAMS_ROUTE)).resolves.toEqual({ success: true, data: [] })
    const forApp = await early.fetch("/api/streams/all", { method: "GET" })
    await expect(forApp.json()).resolves.toEqual({ success: true, data: [] })
    // the early answer is used once; afterwards the network is asked
    await early.fetch("/api/streams/all", { method: "GET" })
    await early.fetch("/api/site-settings")
    expect(fetch).toHaveBeenCalledTimes(4)
  })

  it("hands the app a refused session as it came, and gives the warm start nothing to go on", async () => {
    const fetch = vi.fn(async () => json({ success: false, status: 403, detail: "no session" }, 403))
    const early = startEarlyCalls(fetch as unknown as typeof globalThis.fetch, "stale", [STREAMS_ROUTE])
    await expect(early.json(STREAMS_ROUTE)).resolves.toBeUndefined()
    expect((await early.fetch("/api/streams/all")).status).toBe(403)
  })

  it("gives the warm start nothing for a failed request or an answer that is not JSON, and the app the failure", async () => {
    const down = startEarlyCalls(
      (async () => {
        throw new TypeError("offline")
      }) as unknown as typeof globalThis.fetch,
      "t",
      [STREAMS_ROUTE]
    )
    await expect(down.json(STREAMS_ROUTE)).resolves.toBeUndefined()
    await expect(down.fetch("/api/streams/all")).rejects.toThrow("offline")
    const html = startEarlyCalls(
      (async () => new Response("<html>", { headers: { "content-type": "text/html" } })) as unknown as typeof globalThis.fetch,
      "t",
      [MAINTENANCE_ROUTE]
    )
    await expect(html.json(MAINTENANCE_ROUTE)).resolves.toBeUndefined()
    expect(await (await html.fetch("/api/maintenance")).text()).toBe("<html>")
  })
})
