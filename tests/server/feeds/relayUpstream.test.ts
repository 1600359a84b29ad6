import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fetchUpstream, UpstreamError } from "../../../src/server/feeds/relayUpstream.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"

// What a relay takes from an upstream is bounded in time and bytes, whatever the upstream sends.
describe("fetching from an upstream", () => {
  let upstream: Upstream
  beforeAll(async () => {
    upstream = await startUpstream()
  })
  afterAll(() => upstream.stop())

  const request = (path: string, options: { timeoutMs?: number; maxBytes?: number; range?: { offset: number; length: number } } = {}) =>
    fetchUpstream({
      url: `${upstream.url}${path}`,
      headers: [],
      timeoutMs: options.timeoutMs ?? 10_000,
      maxBytes: options.maxBytes ?? 64 * 2 ** 20,
      ...options
    })

  it("gives up on a segment that never ends: at its byte cap, or at its time limit", async () => {
    await expect(request("/endless.ts", { maxBytes: 256 * 1024 })).rejects.toThrow(/more than the 262144 bytes allowed/)
    const timedOut = request("/endless.ts", { timeoutMs: 1000 })
    await expect(timedOut).rejects.toBeInstanceOf(UpstreamError)
    await expect(timedOut).rejects.toThrow(/did not end within 1 s/)
  })

  it("cuts a byte range from the whole when the upstream does not take Range", async () => {
    const playlist = (await request("/live/demo1/index.m3u8")).body.toString()
    const segment = `/live/demo1/${playlist.split("\n").find((line) => line !== "" && !line.startsWith("#"))}`
    const whole = (await request(segment)).body
    const range = await request(segment, { range: { offset: 10, length: 1000 } })
    expect(range.status).toBe(200)
    expect(range.body.equals(whole.subarray(10, 1010))).toBe(true)
    await expect(request(segment, { range: { offset: whole.length - 10, length: 100 } })).rejects.toThrow(
      /sent 10 bytes for a range of 100/
    )
  })
})
