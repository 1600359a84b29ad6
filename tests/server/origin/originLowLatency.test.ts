import { readFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify"
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { lowLatencyPlaylistPath } from "../../../src/server/origin/lowLatencyRoutes.ts"
import { registerOrigin } from "../../../src/server/origin/originRoutes.ts"
import { WAIT, WAIT_MS } from "../../support/timeouts.ts"

const mediaDir = fileURLToPath(new URL("../../../media", import.meta.url))
const startedAt = Date.UTC(2025, 0, 1, 12, 0, 0)
let now = startedAt
let app: FastifyInstance

interface Part {
  readonly offset: number
  readonly size: number
  readonly duration: number
}

const manifest = async (channel: string): Promise<{ segments: Array<{ file: string; duration: number; parts: Array<Part> }> }> =>
  JSON.parse(await readFile(path.join(mediaDir, channel, "segments.json"), "utf8"))

const segmentFile = async (channel: string, index: number): Promise<Buffer> => readFile(path.join(mediaDir, channel, `seg${index}.ts`))

const get = (url: string) => app.inject({ method: "GET", url })

const hintOf = (body: string): string | undefined => /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(body)?.[1]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Resolves to the response, or to "pending" if it has not arrived within `ms` of real time. The
 * origin's clock here moves only by hand, so a request it holds stays pending however long one
 * waits: a request answered within WAIT_MS was not held.
 */
const within = (request: Promise<LightMyRequestResponse>, ms: number) => Promise.race([request, sleep(ms).then(() => "pending" as const)])

// 0.9 s after start: segments 0..5 complete, parts 6.0 and 6.1 out, 6.2 hinted (published at +1.2 s)
const AT = startedAt + 900

beforeAll(async () => {
  app = Fastify()
  await registerOrigin(app, { mediaDir, now: () => now, startedAt })
  await app.ready()
})

afterAll(async () => {
  await app.close()
})

beforeEach(() => {
  now = AT
})

describe("low-latency origin", () => {
  it("exposes the low-latency playlist path", () => {
    expect(lowLatencyPlaylistPath("demo1")).toBe("/live/demo1/ll.m3u8")
  })

  it("serves ll.m3u8 with parts and a preload hint, uncached", async () => {
    const response = await get("/live/demo1/ll.m3u8")
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toBe("application/vnd.apple.mpegurl")
    expect(response.headers["cache-control"]).toBe("no-cache")
    expect(response.headers["access-control-allow-origin"]).toBeUndefined()
    expect(response.body).toContain("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.2,HOLD-BACK=6\n")
    expect(response.body).toContain("#EXT-X-PART-INF:PART-TARGET=0.4\n")
    expect(response.body).toContain('#EXT-X-PART:DURATION=0.4,URI="part/6.1.ts",INDEPENDENT=YES\n')
    expect(hintOf(response.body)).toBe("part/6.2.ts")
  })

  it("leaves index.m3u8 without low-latency tags", async () => {
    const response = await get("/live/demo1/index.m3u8")
    expect(response.body).not.toMatch(/#EXT-X-(PART|PART-INF|SERVER-CONTROL|PRELOAD-HINT)[:]/)
    expect(response.body).toContain("#EXT-X-VERSION:3\n")
  })

  for (const channel of ["demo1", "demo2"]) {
    it(`serves ${channel}'s parts as byte ranges whose concatenation is the segment file`, async () => {
      now = startedAt + 60_000
      const { segments } = await manifest(channel)
      for (const [index, segment] of segments.entries()) {
        expect(segment.parts.map((part) => part.duration)).toEqual([0.4, 0.4, 0.4, 0.4, 0.4])
        const file = await segmentFile(channel, index)
        const sequence = 12 + index
        const bodies: Array<Buffer> = []
        for (const [partIndex, part] of segment.parts.entries()) {
          const response = await get(`/live/${channel}/part/${sequence}.${partIndex}.ts`)
          expect(response.statusCode).toBe(200)
          expect(response.headers["content-type"]).toBe("video/mp2t")
          expect(response.headers["cache-control"]).toContain("immutable")
          expect(Buffer.compare(response.rawPayload, file.subarray(part.offset, part.offset + part.size))).toBe(0)
          // starts on a TS packet that belongs to PAT/SDT, so the part decodes on its own
          expect(response.rawPayload[0]).toBe(0x47)
          expect(response.rawPayload.length % 188).toBe(0)
          bodies.push(response.rawPayload)
        }
        expect(Buffer.compare(Buffer.concat(bodies), file)).toBe(0)
      }
    })
  }

  it("answers a blocking reload for a published part at once", async () => {
    const response = await within(get("/live/demo1/ll.m3u8?_HLS_msn=6&_HLS_part=1"), WAIT_MS)
    expect(response).not.toBe("pending")
  })

  it("holds a blocking reload until the clock passes the part's publish time", async () => {
    const request = get("/live/demo1/ll.m3u8?_HLS_msn=6&_HLS_part=2")
    expect(await within(request, 100)).toBe("pending")
    now = startedAt + 1199
    expect(await within(request, 60)).toBe("pending")
    now = startedAt + 1200
    const response = await within(request, WAIT_MS)
    if (response === "pending") throw new Error("the blocking reload did not resolve")
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('URI="part/6.2.ts",INDEPENDENT=YES\n')
    expect(hintOf(response.body)).toBe("part/6.3.ts")
  })

  it("holds a request for the preload-hinted part and sends it once published", async () => {
    const hinted = hintOf((await get("/live/demo2/ll.m3u8")).body)
    expect(hinted).toBe("part/6.2.ts")
    const request = get(`/live/demo2/${hinted}`)
    expect(await within(request, 100)).toBe("pending")
    now = startedAt + 1200
    const response = await within(request, WAIT_MS)
    if (response === "pending") throw new Error("the hinted part did not arrive")
    expect(response.statusCode).toBe(200)
    const part = (await manifest("demo2")).segments[0]?.parts[2]
    const file = await segmentFile("demo2", 0)
    expect(Buffer.compare(response.rawPayload, file.subarray(part?.offset, (part?.offset ?? 0) + (part?.size ?? 0)))).toBe(0)
  })

  it("answers 404 for a future part other than the hinted one, and for unknown names", async () => {
    for (const url of ["/live/demo1/part/6.3.ts", "/live/demo1/part/7.0.ts", "/live/demo1/part/6.5.ts", "/live/demo1/part/x.ts"]) {
      const response = await within(get(url), WAIT_MS)
      if (response === "pending") throw new Error(`${url} was held`)
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ success: false, status: 404, detail: "unknown part" })
    }
    const unknown = await get("/live/nope/ll.m3u8")
    expect(unknown.json()).toEqual({ success: false, status: 404, detail: "unknown channel" })
  })

  it("answers 400 for a media sequence too far ahead and for malformed directives", async () => {
    const far = await get("/live/demo1/ll.m3u8?_HLS_msn=8&_HLS_part=0")
    expect(far.statusCode).toBe(400)
    expect(far.json()).toEqual({ success: false, status: 400, detail: "_HLS_msn is too far in the future" })
    for (const query of ["_HLS_part=1", "_HLS_msn=abc", "_HLS_msn=6&_HLS_part=-1", "_HLS_msn=6&_HLS_msn=7"]) {
      expect((await get(`/live/demo1/ll.m3u8?${query}`)).statusCode).toBe(400)
    }
  })

  it("times out after three target durations with the playlist as it stands", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: startedAt - 60_000 })
    const other = Fastify()
    try {
      await registerOrigin(other, { mediaDir, now: () => Date.now(), startedAt })
      // Before startedAt the timeline is frozen, so the hinted part is a minute of clock away.
      let response: LightMyRequestResponse | undefined
      void other.inject({ method: "GET", url: "/live/demo1/ll.m3u8?_HLS_msn=6&_HLS_part=0" }).then((r) => (response = r))
      await vi.advanceTimersByTimeAsync(5999)
      expect(response).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await vi.waitFor(() => expect(response?.statusCode).toBe(200), WAIT)
      expect(hintOf(response?.body ?? "")).toBe("part/6.0.ts")
    } finally {
      vi.useRealTimers()
      await other.close()
    }
  })
})

describe("closing the origin", () => {
  it("answers held requests instead of keeping the server open", async () => {
    const clock = startedAt + 900
    const other = Fastify()
    await registerOrigin(other, { mediaDir, now: () => clock, startedAt })
    const playlist = other.inject({ method: "GET", url: "/live/demo1/ll.m3u8?_HLS_msn=6&_HLS_part=2" })
    const part = other.inject({ method: "GET", url: "/live/demo1/part/6.2.ts" })
    expect(await within(playlist, 60)).toBe("pending")
    await other.close()
    const [held, hinted] = await Promise.all([within(playlist, WAIT_MS), within(part, WAIT_MS)])
    if (held === "pending" || hinted === "pending") throw new Error("close left a request hanging")
    expect(held.statusCode).toBe(200)
    expect(hintOf(held.body)).toBe("part/6.2.ts")
    expect(hinted.statusCode).toBe(503)
  })
})
