import { describe, expect, it, vi } from "vitest"
import { startEarlyCalls } from "../../../src/adapters/http/earlyCalls.ts"
import { type KickoffScope, kickoff, STARTUP_ROUTES, takeKickoff } from "../../../src/adapters/http/kickoff.ts"
import { STREAMS_ROUTE } from "../../../src/domain/startupRoutes.ts"

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } })

const scope = (
  pathname: string,
  token: string | null,
  search = ""
): KickoffScope & { readonly sent: Array<[string, RequestInit | undefined]> } => {
  const sent: Array<[string, RequestInit | undefined]> = []
  return {
    sent,
    location: { pathname, search },
    localStorage: { getItem: (key) => (key === "Token" ? token : null) },
    fetch: (async (url: RequestInfo | URL, init?: RequestInit) => {
      sent.push([String(url), init])
      return String(url) === "/api/maintenance" ? json({ maintenanceMode: false }) : json({ success: true, data: [] })
    }) as typeof globalThis.fetch
  }
}

describe("the player page's inline kick-off", () => {
  it("sends a player page's two start-up calls with the stored session as the app would, the streams call naming the stream and player", () => {
    for (const [pathname, player] of [
      ["/player", "1"],
      ["/playersldp/", "2"]
    ] as const) {
      const page = scope(pathname, "t-1", "?default=2")
      kickoff(page)
      const app = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json({}))
      startEarlyCalls(app as unknown as typeof globalThis.fetch, "t-1", STARTUP_ROUTES)
      expect(page.sent.map(([, init]) => init)).toEqual(app.mock.calls.map(([, init]) => init))
      expect(page.sent.map(([url]) => url)).toEqual(["/api/maintenance", `/api/streams/all?start=2&player=${player}`])
    }
    // an index the streams call does not take: the list alone
    const far = scope("/player", "t-1", "?default=123456")
    kickoff(far)
    expect(far.sent.map(([url]) => url)).toEqual(["/api/maintenance", "/api/streams/all"])
  })

  it("sends nothing on other pages, without a session, or when storage refuses", () => {
    const pages = [scope("/", "t-1"), scope("/login", "t-1"), scope("/player/extra", "t-1"), scope("/player", null), scope("/player", "")]
    for (const page of pages) kickoff(page)
    const refusing = {
      ...scope("/player", "t-1"),
      localStorage: {
        getItem: () => {
          throw new Error("SecurityError")
        }
      }
    }
    kickoff(refusing)
    expect([...pages, refusing].flatMap((page) => page.sent)).toEqual([])
    expect([...pages, refusing].map((page) => page.__streamhubKickoff)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined
    ])
  })

  it("hands its calls over once, and only to the session it sent them with", async () => {
    const page = scope("/player", "t-1")
    kickoff(page)
    expect(takeKickoff(page, "another session")).toBeUndefined()
    expect(takeKickoff(page, "t-1")).toBeUndefined()
    kickoff(page)
    const calls = takeKickoff(page, "t-1")
    expect(takeKickoff(page, "t-1")).toBeUndefined()
    // the app's early calls take them over instead of asking again
    const network = vi.fn(async () => json({ success: true, data: ["again"] }))
    const early = startEarlyCalls(network as unknown as typeof globalThis.fetch, "t-1", STARTUP_ROUTES, calls)
    expect(network).not.toHaveBeenCalled()
    await expect(early.json(STREAMS_ROUTE)).resolves.toEqual({ success: true, data: [] })
    await expect((await early.fetch("/api/streams/all", { method: "GET" })).json()).resolves.toEqual({ success: true, data: [] })
    expect(page.sent).toHaveLength(4)
  })

  it("leaves a failed call for whoever takes it over, without an unhandled rejection", async () => {
    const page = {
      ...scope("/player", "t-1"),
      fetch: (async () => {
        throw new TypeError("offline")
      }) as typeof globalThis.fetch
    }
    kickoff(page)
    const early = startEarlyCalls(vi.fn() as unknown as typeof globalThis.fetch, "t-1", STARTUP_ROUTES, takeKickoff(page, "t-1"))
    await expect(early.fetch("/api/maintenance", { method: "GET" })).rejects.toThrow("offline")
    await expect(early.json(STREAMS_ROUTE)).resolves.toBeUndefined()
  })
})
