import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { grantOf } from "../../../src/domain/streamGrant.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { dialects } from "../../support/dbHarness.ts"
import { type FfmpegPackaging, type FfmpegUpstream, hasFfmpeg, startFfmpegUpstream } from "../../support/ffmpegUpstream.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

const uris = (playlist: string): Array<string> => [
  ...[...playlist.matchAll(/URI="([^"]+)"/g)].map((match) => match[1] ?? ""),
  ...playlist.split("\n").filter((line) => line !== "" && !line.startsWith("#"))
]

const box = (bytes: Buffer): string => bytes.subarray(4, 8).toString("latin1")

// Live classic HLS as a provider's packager writes it: Debian's ffmpeg encoding in real time, in
// MPEG-TS segments and in fMP4 addressed by byte ranges of one growing file.
describe.skipIf(!hasFfmpeg())("relaying a live channel ffmpeg packages", () => {
  let server: TestServer
  let token = ""
  const admin = async (...argv: Array<string>) => {
    const lines: Array<string> = []
    const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db, now: () => server.clock })
    return { code, output: lines.join("\n") }
  }
  const play = (url: string, ip = "10.60.0.1") => server.app.inject({ method: "GET", url, remoteAddress: ip })

  beforeAll(async () => {
    server = await startTestServer(dialects[0]!)
    await server.db.kysely.deleteFrom("streams").execute()
    await server.addUser({ email: "ffmpeg-viewer@example.com" })
    token = await server.signIn("ffmpeg-viewer@example.com")
  })
  afterAll(() => server.dispose())

  describe.each<[FfmpegPackaging, string]>([
    ["ts", "TS"],
    ["fmp4-byterange", "fMP4 byte ranges"]
  ])("%s", (packaging, title) => {
    let upstream: FfmpegUpstream
    beforeAll(async () => {
      upstream = await startFfmpegUpstream(packaging)
    })
    afterAll(() => upstream?.stop())

    it("plays through our origin: every URI ours with the grant, program date times kept, each object fetched once for many viewers", async () => {
      const added = await admin("stream:add", "--title", title, "--relay", upstream.url)
      expect(added.code, added.output).toBe(0)
      expect(added.output).toMatch(/relay of HLS media playlist, on demand/)
      const streams = (await server.call("streams", { token })).json() as { data: Array<{ title: string; src: string }> }
      const src = streams.data.find((stream) => stream.title === title)?.src ?? ""
      const grant = grantOf(src) ?? ""
      const playlist = await play(src)
      expect(playlist.statusCode, playlist.body).toBe(200)
      expect(playlist.body).toMatch(/#EXT-X-PROGRAM-DATE-TIME:/)
      expect(playlist.body).not.toMatch(/BYTERANGE|127\.0\.0\.1/)
      const named = uris(playlist.body)
      expect(named.length).toBeGreaterThanOrEqual(3)
      for (const uri of named) expect(uri).toMatch(/^\/live\/relay\d+\/m\/[\w-]{22}\.(ts|m4s)\?grant=/)
      expect(new Set(named).size).toBe(named.length)

      // six viewers at once ask for every object the playlist names
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, viewer) =>
          named.map((uri) => play(`${uri.split("?")[0]}?grant=${grant}`, `10.60.1.${viewer}`))
        ).flat()
      )
      for (const answer of answers) expect(answer.statusCode).toBe(200)
      const first = answers.slice(0, named.length)
      if (packaging === "ts") {
        for (const answer of first) expect(answer.rawPayload[0]).toBe(0x47)
      } else {
        // the init section, then media segments, each exactly its range
        expect(box(first[0]!.rawPayload)).toBe("ftyp")
        for (const answer of first.slice(1)) expect(["moof", "styp", "sidx"]).toContain(box(answer.rawPayload))
      }
      const media = [...upstream.counts].filter(([path]) => !path.endsWith(".m3u8"))
      expect(media.length).toBe(named.length)
      expect(media.filter(([, n]) => n !== 1)).toEqual([])
      if (packaging === "fmp4-byterange") for (const [request] of media) expect(request).toMatch(/^\/index\.m4s bytes=\d+-\d+$/)
    })
  })
})
