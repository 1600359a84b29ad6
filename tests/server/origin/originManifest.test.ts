import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import Fastify from "fastify"
import { afterEach, describe, expect, it } from "vitest"
import { listOriginChannels, registerOrigin } from "../../../src/server/origin/originRoutes.ts"

const demo2 = fileURLToPath(new URL("../../../media/demo2", import.meta.url))
const made: Array<string> = []

interface Segment {
  file: string
  duration: number
  parts?: Array<{ offset: number; size: number; duration: number }>
}

/** A media directory with one channel: demo2's files under a manifest edited by `edit`. */
const mediaWith = async (edit: (segments: Array<Segment>) => void): Promise<string> => {
  const dir = await mkdtemp(path.join(tmpdir(), "origin-media-"))
  made.push(dir)
  await cp(demo2, path.join(dir, "tv"), { recursive: true })
  const where = path.join(dir, "tv", "segments.json")
  const manifest = JSON.parse(await readFile(where, "utf8")) as { segments: Array<Segment> }
  edit(manifest.segments)
  await writeFile(where, JSON.stringify(manifest))
  return dir
}

const start = async (mediaDir: string) => {
  const app = Fastify()
  await registerOrigin(app, { mediaDir, now: () => 60_000, startedAt: 0 })
  return app
}

afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe("origin manifests with parts", () => {
  it("serves media made without parts as before, with no low-latency variant", async () => {
    const mediaDir = await mediaWith((segments) => {
      for (const segment of segments) delete segment.parts
    })
    expect(await listOriginChannels(mediaDir)).toEqual([{ name: "tv", label: "Demo 2", src: "/live/tv/index.m3u8" }])
    const app = await start(mediaDir)
    expect((await app.inject({ url: "/live/tv/index.m3u8" })).statusCode).toBe(200)
    const low = await app.inject({ url: "/live/tv/ll.m3u8" })
    expect(low.statusCode).toBe(404)
    expect(low.json()).toEqual({ success: false, status: 404, detail: "unknown channel" })
    await app.close()
  })

  const part = (segments: Array<Segment>, segment: number, index: number) => {
    const found = segments[segment]?.parts?.[index]
    if (found === undefined) throw new Error("demo2 lost its parts")
    return found
  }
  const broken: Array<[string, (segments: Array<Segment>) => void, RegExp]> = [
    [
      "a gap between parts",
      (segments) => {
        part(segments, 1, 2).offset += 188
      },
      /segments\[1\]\.parts\[2\]\.offset must be/
    ],
    [
      "parts that stop short of the file end",
      (segments) => {
        part(segments, 3, 4).size -= 188
      },
      /parts of seg3\.ts do not cover/
    ],
    [
      "durations that miss the segment's",
      (segments) => {
        part(segments, 0, 0).duration = 0.5
      },
      /durations do not add up/
    ],
    [
      "parts on only some segments",
      (segments) => {
        delete segments[5]?.parts
      },
      /either every segment has parts or none/
    ],
    [
      "an empty part list",
      (segments) => {
        segments[2] = { file: "seg2.ts", duration: 2, parts: [] }
      },
      /segments\[2\]\.parts must be a non-empty array/
    ],
    [
      "a zero-byte part",
      (segments) => {
        part(segments, 2, 1).size = 0
      },
      /segments\[2\]\.parts\[1\]\.size must be a positive integer/
    ]
  ]
  for (const [what, edit, message] of broken) {
    it(`refuses to start with ${what}`, async () => {
      await expect(start(await mediaWith(edit))).rejects.toThrow(message)
    })
  }
})
