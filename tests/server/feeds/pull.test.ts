import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { grantOf } from "../../../src/domain/streamGrant.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { packagingChildren } from "../../support/childProcesses.ts"
import { dialects } from "../../support/dbHarness.ts"
import { hasFfmpeg, startTsBroadcast, type TsBroadcast } from "../../support/ffmpegUpstream.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

/** The segment being made and how many of its parts are out. */
const edgeOf = (playlist: string) => ({
  sequence: sequenceOf(playlist) + playlist.split("\n").filter((line) => line.startsWith("#EXTINF")).length,
  parts: playlist
    .slice(Math.max(0, playlist.lastIndexOf("#EXTINF")))
    .split("\n")
    .filter((line) => line.startsWith("#EXT-X-PART:")).length
})
const sequenceOf = (playlist: string): number => Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1])
const box = (bytes: Buffer): string => bytes.subarray(4, 8).toString("latin1")

// A channel ffmpeg pulls (MPEG-TS over HTTP here) and our packager serves as LL-HLS.
describe.skipIf(!hasFfmpeg())("a pulled channel, packaged as LL-HLS by our origin", () => {
  let server: TestServer
  let source: TsBroadcast
  let token = ""
  let src = ""
  const admin = async (...argv: Array<string>) => {
    const lines: Array<string> = []
    const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db, now: () => server.clock })
    return { code, output: lines.join("\n") }
  }
  const play = (url: string, ip = "10.70.0.1") => server.app.inject({ method: "GET", url, remoteAddress: ip })
  const playlist = async () => {
    const answer = await play(src)
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.body
  }

  beforeAll(async () => {
    source = await startTsBroadcast()
    server = await startTestServer(dialects[0]!)
    await server.db.kysely.deleteFrom("streams").execute()
    await server.addUser({ email: "pull-viewer@example.com" })
    token = await server.signIn("pull-viewer@example.com")
  })
  afterAll(async () => {
    await server.dispose()
    await source.stop()
  })

  it("refuses what ffmpeg cannot pull, in one line, and adds nothing", async () => {
    const cases: Array<[Array<string>, RegExp]> = [
      [["--pull", "not a url"], /is not a URL/],
      [["--pull", "file:///etc/passwd"], /not an address ffmpeg pulls from here/],
      [["--pull", "http://127.0.0.1:9/nothing.ts"], /Connection refused|refused/i],
      [["--pull", source.url, "--header", "X: y"], /--header goes with --relay/],
      [["--pull", source.url, "--relay", source.url], /give one of --relay, --pull, --ingest or --src/]
    ]
    for (const [args, reason] of cases) {
      const { code, output } = await admin("stream:add", "--title", "Nope", ...args)
      expect(code, output).not.toBe(0)
      expect(output).toMatch(reason)
    }
    const before = process.env.FFPROBE_PATH
    process.env.FFPROBE_PATH = "/nonexistent/ffprobe"
    try {
      const missing = await admin("stream:add", "--title", "Nope", "--pull", source.url)
      expect(missing.output).toMatch(/ffmpeg is not installed/)
    } finally {
      if (before === undefined) delete process.env.FFPROBE_PATH
      else process.env.FFPROBE_PATH = before
    }
    expect(await server.db.kysely.selectFrom("streams").selectAll().execute()).toEqual([])
  })

  it("adds the channel, and serves it as LL-HLS with parts, keyframes marked, program date times and blocking reload", async () => {
    const added = await admin("stream:add", "--title", "Pulled", "--pull", source.url)
    expect(added.code, added.output).toBe(0)
    expect(added.output).toMatch(
      /^Added stream \d+: Pulled \(h264 video, aac audio pulled by ffmpeg, on demand; players open \/live\/pull\d+\/index\.m3u8\)$/
    )
    expect((await admin("stream:list")).output).toMatch(/stream \d+ pulls http:\/\/127\.0\.0\.1:\d+\/live\.ts through ffmpeg/)
    const streams = (await server.call("streams", { token })).json() as { data: Array<{ title: string; src: string }> }
    src = streams.data.find((stream) => stream.title === "Pulled")?.src ?? ""
    expect(src).toMatch(/^\/live\/pull\d+\/index\.m3u8\?grant=/)

    // the first viewer starts ffmpeg; within the start grace the playlist is there
    await expect.poll(async () => (await play(src)).statusCode, { timeout: WAIT_MS }).toBe(200)
    await expect
      .poll(async () => (await playlist()).split("\n").filter((line) => line.startsWith("#EXTINF")).length, { timeout: WAIT_MS })
      .toBeGreaterThanOrEqual(2)
    const text = await playlist()
    expect(text).toMatch(/#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1\.[0-9]+/)
    expect(text).toMatch(/#EXT-X-PART-INF:PART-TARGET=0\.[45]00/)
    expect(text).toMatch(/#EXT-X-PROGRAM-DATE-TIME:20\d\d-/)
    expect(text).toMatch(/#EXT-X-PART:DURATION=[\d.]+,URI="[^"]+",INDEPENDENT=YES/)
    expect(text).toMatch(/#EXT-X-PRELOAD-HINT:TYPE=PART,URI="/)
    const grant = grantOf(src) ?? ""
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1] ?? ""
    expect(init).toContain(`grant=${grant}`)
    expect(box((await play(init)).rawPayload)).toBe("ftyp")
    const part = /#EXT-X-PART:[^\n]*URI="([^"]+)"/.exec(text)?.[1] ?? ""
    expect(box((await play(part)).rawPayload)).toBe("moof")
    // media need the grant
    expect((await play(part.split("?")[0] ?? "", "10.71.0.1")).statusCode).toBe(403)

    // the hinted part, asked for before it exists, comes as soon as it is out
    const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="([^"]+)"/.exec(text)?.[1] ?? ""
    const hinted = await play(hint)
    expect(hinted.statusCode).toBe(200)
    expect(box(hinted.rawPayload)).toBe("moof")

    // a blocking reload for the part after next is held until it is out
    const now = edgeOf(await playlist())
    const held = await play(`${src}&_HLS_msn=${now.sequence}&_HLS_part=${now.parts + 1}`)
    expect(held.statusCode).toBe(200)
    const reached = edgeOf(held.body)
    expect(reached.sequence > now.sequence || reached.parts > now.parts + 1).toBe(true)
    expect(packagingChildren()).toHaveLength(1)
    expect(source.connections()).toBe(2)
  })

  it("starts ffmpeg again when it dies, continuing the playlist after a discontinuity with a new init section", async () => {
    const before = await playlist()
    const [pid] = packagingChildren()
    expect(pid).toBeDefined()
    process.kill(pid!, "SIGKILL")
    await expect
      .poll(async () => /#EXT-X-DISCONTINUITY\n/.test(await playlist()) && packagingChildren().length === 1, { timeout: WAIT_MS })
      .toBe(true)
    const after = await playlist()
    expect(sequenceOf(after)).toBeGreaterThanOrEqual(sequenceOf(before))
    expect(new Set([...after.matchAll(/#EXT-X-MAP:URI="([^"?]+)/g)].map((match) => match[1])).size).toBe(2)
    const staff = await server.addUser({ email: "pull-staff@example.com", staff: true })
    const view = (await server.call("connections", { token: await server.signIn(staff.email) })).json() as {
      feeds?: Array<{ stream: string; restarts: number; state: string }>
    }
    await expect
      .poll(
        async () => {
          const info = (await server.call("connections", { token: await server.signIn(staff.email) })).json() as typeof view
          return info.feeds?.find((feed) => feed.stream === "Pulled")?.restarts
        },
        { timeout: WAIT_MS }
      )
      .toBeGreaterThanOrEqual(1)
  })

  it("ends ffmpeg a while after the last viewer, and leaves no process behind", async () => {
    server.clock += 61_000
    await expect.poll(() => packagingChildren().length, { timeout: WAIT_MS }).toBe(0)
    expect((await admin("stream:list")).output).toMatch(/Pulled\s+\S+\s+pull\s+idle/)
  })
})
