import { readFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import Fastify, { type FastifyInstance } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { livePlaylist } from "../../../src/server/origin/livePlaylist.ts"
import { listOriginChannels, registerOrigin } from "../../../src/server/origin/originRoutes.ts"

const mediaDir = fileURLToPath(new URL("../../../media", import.meta.url))
const startedAt = Date.UTC(2025, 0, 1, 12, 0, 0)
let now = startedAt
let app: FastifyInstance

const manifest = async (channel: string): Promise<{ segments: Array<{ file: string; duration: number }> }> =>
  JSON.parse(await readFile(path.join(mediaDir, channel, "segments.json"), "utf8"))

const playlistUris = (text: string): Array<string> => text.split("\n").filter((line) => line !== "" && !line.startsWith("#"))

beforeAll(async () => {
  app = Fastify()
  await registerOrigin(app, { mediaDir, now: () => now, startedAt })
  await app.ready()
})

afterAll(async () => {
  await app.close()
})

describe("demo live origin", () => {
  it("lists the demo channels with their playlist paths", async () => {
    expect(await listOriginChannels(mediaDir)).toEqual([
      { name: "demo1", label: "Demo 1", src: "/live/demo1/index.m3u8", lowLatencySrc: "/live/demo1/ll.m3u8" },
      { name: "demo2", label: "Demo 2", src: "/live/demo2/index.m3u8", lowLatencySrc: "/live/demo2/ll.m3u8" }
    ])
  })

  it("ships six 2 s segments per channel", async () => {
    for (const channel of ["demo1", "demo2"]) {
      const { segments } = await manifest(channel)
      expect(segments.map((segment) => segment.duration)).toEqual([2, 2, 2, 2, 2, 2])
    }
  })

  for (const channel of ["demo1", "demo2"]) {
    it(`serves a live playlist for ${channel} whose segments are the files on disk`, async () => {
      const { segments } = await manifest(channel)
      for (const seconds of [0, 7, 13, 3601]) {
        now = startedAt + seconds * 1000
        const playlist = await app.inject({ method: "GET", url: `/live/${channel}/index.m3u8` })
        expect(playlist.statusCode).toBe(200)
        expect(playlist.headers["content-type"]).toBe("application/vnd.apple.mpegurl")
        expect(playlist.headers["cache-control"]).toBe("no-cache")
        expect(playlist.headers["access-control-allow-origin"]).toBeUndefined()
        expect(playlist.body.startsWith("#EXTM3U\n")).toBe(true)
        expect(playlist.body).not.toContain("#EXT-X-ENDLIST")

        const firstSequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist.body)?.[1])
        expect(firstSequence).toBe(Math.floor(seconds / 2))
        const uris = playlistUris(playlist.body)
        expect(uris).toHaveLength(6)
        for (const [i, uri] of uris.entries()) {
          const segment = await app.inject({ method: "GET", url: `/live/${channel}/${uri}` })
          expect(segment.statusCode).toBe(200)
          expect(segment.headers["content-type"]).toBe("video/mp2t")
          expect(segment.headers["cache-control"]).toContain("immutable")
          const file = segments[(firstSequence + i) % segments.length]?.file ?? ""
          const onDisk = await readFile(path.join(mediaDir, channel, file))
          expect(Buffer.compare(segment.rawPayload, onDisk)).toBe(0)
        }
      }
    })
  }

  it("answers 404 JSON for an unknown channel", async () => {
    for (const url of ["/live/nope/index.m3u8", "/live/nope/seg/0.ts"]) {
      const response = await app.inject({ method: "GET", url })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ success: false, status: 404, detail: "unknown channel" })
    }
  })

  it("answers 404 JSON for segments that are malformed or not yet published", async () => {
    now = startedAt
    for (const name of ["6.ts", "1000.ts", "abc.ts", "01.ts", "0.mp4"]) {
      const response = await app.inject({ method: "GET", url: `/live/demo1/seg/${name}` })
      expect(response.statusCode).toBe(404)
      expect(response.json()).toEqual({ success: false, status: 404, detail: "unknown segment" })
    }
    const published = await app.inject({ method: "GET", url: "/live/demo1/seg/5.ts" })
    expect(published.statusCode).toBe(200)
  })

  it("also works as a registered plugin, under a prefix, with the real clock by default", async () => {
    const other = Fastify()
    await other.register(registerOrigin, { mediaDir, prefix: "/origin" })
    const playlist = await other.inject({ method: "GET", url: "/origin/live/demo2/index.m3u8" })
    expect(playlist.statusCode).toBe(200)
    const sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist.body)?.[1])
    expect(sequence).toBeGreaterThan(Date.now() / 2000 - 10)
    const uri = playlistUris(playlist.body).at(-1) ?? ""
    const segment = await other.inject({ method: "GET", url: `/origin/live/demo2/${uri}` })
    expect(segment.statusCode).toBe(200)
    await other.close()
  })
})

describe("demo live origin with a time-shift window", () => {
  const hours = 4
  let dvrApp: FastifyInstance
  const at = startedAt + 86_400_000

  beforeAll(async () => {
    dvrApp = Fastify()
    await registerOrigin(dvrApp, { mediaDir, now: () => at, startedAt, timeshiftMs: async () => hours * 3_600_000 })
    await dvrApp.ready()
  })

  afterAll(async () => {
    await dvrApp.close()
  })

  it("sends the whole window once, gzipped for a player that takes it, and delta updates after", async () => {
    const plain = await dvrApp.inject({ method: "GET", url: "/live/demo1/index.m3u8" })
    expect(plain.statusCode).toBe(200)
    const uris = playlistUris(plain.body)
    expect(uris.length).toBeGreaterThanOrEqual(hours * 1800)
    expect(plain.headers.vary).toContain("Accept-Encoding")

    const zipped = await dvrApp.inject({ method: "GET", url: "/live/demo1/index.m3u8", headers: { "accept-encoding": "gzip, br" } })
    expect(zipped.headers["content-encoding"]).toBe("gzip")
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5)
    const { gunzipSync } = await import("node:zlib")
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body)

    const delta = await dvrApp.inject({ method: "GET", url: "/live/demo1/index.m3u8?_HLS_skip=YES" })
    expect(delta.body).toMatch(/#EXT-X-SKIP:SKIPPED-SEGMENTS=\d+\n/)
    expect(playlistUris(delta.body)).toEqual(uris.slice(-playlistUris(delta.body).length))
    expect(delta.body.length).toBeLessThan(4000)
  })

  it("serves a segment from the window's start, and not one older", async () => {
    const uris = playlistUris((await dvrApp.inject({ method: "GET", url: "/live/demo1/index.m3u8" })).body)
    const oldest = uris[0] ?? ""
    const served = await dvrApp.inject({ method: "GET", url: `/live/demo1/${oldest}` })
    expect(served.statusCode).toBe(200)
    const sequence = Number(/(\d+)\.ts$/.exec(oldest)?.[1])
    expect((await dvrApp.inject({ method: "GET", url: `/live/demo1/seg/${sequence - 100}.ts` })).statusCode).toBe(404)
  })
})

describe("the loop playlists the origin keeps", () => {
  it("answers each new segment, and a changed time-shift window, in the next playlist", async () => {
    let at = startedAt + 86_400_000
    let hours = 1
    const kept = Fastify()
    await registerOrigin(kept, { mediaDir, now: () => at, startedAt, timeshiftMs: async () => hours * 3_600_000 })
    const { segments } = await manifest("demo1")
    /** What a playlist written afresh for this moment and window says. */
    const fresh = (skip: boolean) =>
      livePlaylist({ segments, startedAt, now: at, windowSize: 6, dvrMs: hours * 3_600_000 }, skip && hours > 0)
    const asked = async (query = "") => (await kept.inject({ method: "GET", url: `/live/demo1/index.m3u8${query}` })).body
    try {
      for (const step of [0, 500, 1_600, 2_000, 60_000]) {
        at += step
        expect(await asked()).toBe(fresh(false))
        expect(await asked("?_HLS_skip=YES")).toBe(fresh(true))
      }
      const newest = playlistUris(await asked()).at(-1)
      at += 2_000
      expect(playlistUris(await asked()).at(-1)).not.toBe(newest)
      hours = 2
      expect(await asked()).toBe(fresh(false))
      expect(playlistUris(await asked()).length).toBeGreaterThanOrEqual(2 * 1800)
      hours = 0
      expect(await asked()).toBe(fresh(false))
      expect(await asked()).not.toContain("CAN-SKIP-UNTIL")
      expect(await asked("?_HLS_skip=YES")).toBe(fresh(false))
    } finally {
      await kept.close()
    }
  })
})
