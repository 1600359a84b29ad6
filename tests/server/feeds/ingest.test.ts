import { randomBytes } from "node:crypto"
import dgram from "node:dgram"
import net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { packagingChildren } from "../../support/childProcesses.ts"
import { dialects } from "../../support/dbHarness.ts"
import { type Encoder, freePorts, listens, startEncoder } from "../../support/ffmpegEncoder.ts"
import { hasFfmpeg } from "../../support/ffmpegUpstream.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

const sequenceOf = (playlist: string): number => Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1])
const segments = (playlist: string): number => playlist.split("\n").filter((line) => line.startsWith("#EXTINF")).length
const keyIn = (output: string): string => /\/live\/([A-Za-z0-9_-]{24})$/m.exec(output)?.[1] ?? ""

interface FeedView {
  readonly stream: string
  readonly state: string
  readonly restarts: number
  readonly source?: string | null
  readonly encoder?: { readonly fps: number | null; readonly speed: number | null } | null
}

// Channels an encoder pushes to us over RTMP or SRT with the channel's key, packaged by ffmpeg and
// our packager as LL-HLS.
describe.skipIf(!hasFfmpeg())("ingest channels, pushed over RTMP and SRT", () => {
  let server: TestServer
  let rtmpPort = 0
  let srtPort = 0
  let token = ""
  let staffToken = ""
  let disposed = false
  const encoders: Array<Encoder> = []
  const pushed: { id: number; key: string; src: string; encoder: Encoder | undefined } = { id: 0, key: "", src: "", encoder: undefined }
  const admin = async (...argv: Array<string>) => {
    const lines: Array<string> = []
    const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db, now: () => server.clock })
    return { code, output: lines.join("\n") }
  }
  const play = (url: string, ip = "10.80.0.1") => server.app.inject({ method: "GET", url, remoteAddress: ip })
  const srcOf = async (title: string): Promise<string> => {
    const streams = (await server.call("streams", { token })).json() as { data: Array<{ title: string; src: string }> }
    return streams.data.find((stream) => stream.title === title)?.src ?? ""
  }
  const feedOf = async (title: string): Promise<FeedView | undefined> => {
    const view = (await server.call("connections", { token: staffToken })).json() as { feeds?: Array<FeedView> }
    return view.feeds?.find((feed) => feed.stream === title)
  }
  const encode = (url: string, tracks?: "both" | "video" | "audio"): Encoder => {
    const encoder = startEncoder(url, { tracks })
    encoders.push(encoder)
    return encoder
  }
  const addIngest = async (title: string) => {
    const added = await admin("stream:add", "--title", title, "--ingest")
    expect(added.code, added.output).toBe(0)
    return { output: added.output, key: keyIn(added.output), src: await srcOf(title) }
  }
  const livePlaylist = async (src: string, minimumSegments = 1): Promise<string> => {
    let text = ""
    await expect
      .poll(
        async () => {
          const answer = await play(src)
          text = answer.body
          return answer.statusCode === 200 && segments(text) >= minimumSegments
        },
        { timeout: WAIT_MS }
      )
      .toBe(true)
    return text
  }

  beforeAll(async () => {
    const tcp = await freePorts()
    rtmpPort = tcp.tcp
    srtPort = tcp.udp
    server = await startTestServer(dialects[0]!, {
      env: { RTMP_PORT: String(rtmpPort), SRT_PORT: String(srtPort), INGEST_PUBLIC_HOST: "127.0.0.1" }
    })
    await server.db.kysely.deleteFrom("streams").execute()
    await server.addUser({ email: "ingest-viewer@example.com" })
    token = await server.signIn("ingest-viewer@example.com")
    const staff = await server.addUser({ email: "ingest-staff@example.com", staff: true })
    staffToken = await server.signIn(staff.email)
  })
  afterAll(async () => {
    await Promise.all(encoders.map((encoder) => encoder.stop()))
    if (!disposed) await server.dispose()
  })

  it("opens no port while there is no ingest channel, and refuses bad options in one line", async () => {
    expect(await listens(rtmpPort)).toBe(false)
    const always = await admin("stream:add", "--title", "Nope", "--ingest", "--always-on")
    expect(always.code).not.toBe(0)
    expect(always.output).toMatch(/--always-on does not go with --ingest/)
    const both = await admin("stream:add", "--title", "Nope", "--ingest", "--pull", "http://127.0.0.1:9/x.ts")
    expect(both.output).toMatch(/give one of --relay, --pull, --ingest or --src/)
    const before = process.env.FFMPEG_PATH
    process.env.FFMPEG_PATH = "/nonexistent/ffmpeg"
    try {
      const missing = await admin("stream:add", "--title", "Nope", "--ingest")
      expect(missing.code).toBe(1)
      expect(missing.output).toMatch(
        /ffmpeg is not installed \(\/nonexistent\/ffmpeg not found; apt-get install ffmpeg\): ingest channels need it/
      )
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH
      else process.env.FFMPEG_PATH = before
    }
    const notIngest = await admin("stream:key", "--id", "999", "--rotate")
    expect(notIngest.output).toMatch(/No stream with id 999/)
    expect(await server.db.kysely.selectFrom("streams").selectAll().execute()).toEqual([])
  })

  it("takes an RTMP publisher with the channel's key and serves it as LL-HLS; a wrong key and a second publisher are refused", async () => {
    const { output, key, src } = await addIngest("Pushed")
    expect(output).toMatch(
      /^Added stream \d+: Pushed \(ingest, live while its encoder publishes; players open \/live\/ingest\d+\/index\.m3u8\)$/m
    )
    expect(output).toContain(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`)
    expect(output).toContain(`srt://127.0.0.1:${srtPort}?streamid=${key}`)
    expect(src).toMatch(/^\/live\/ingest\d+\/index\.m3u8\?grant=/)
    // the key is kept only as a hash
    const row = await server.db.kysely.selectFrom("stream_feeds").selectAll().executeTakeFirstOrThrow()
    expect(row.upstream_url).toMatch(/^ingest:sha256:[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(key)
    expect((await admin("stream:list")).output).toMatch(
      /stream \d+ takes an encoder's push at rtmp:\/\/127\.0\.0\.1:\d+\/live\/<key> or srt:/
    )

    // nobody publishes yet: the viewer is told the signal is lost, and the player tries again
    await expect.poll(() => listens(rtmpPort), { timeout: WAIT_MS }).toBe(true)
    const waiting = await play(src)
    expect(waiting.statusCode).toBe(503)
    expect(waiting.json()).toMatchObject({ reason: "signalLost" })

    const wrong = encode(`rtmp://127.0.0.1:${rtmpPort}/live/${"x".repeat(24)}`)
    expect(await wrong.exited).not.toBe(0)
    expect(wrong.stderr()).toMatch(/no channel has this key/)

    Object.assign(pushed, { key, src, id: Number(/stream (\d+)/.exec(output)?.[1]) })
    pushed.encoder = encode(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`)
    const text = await livePlaylist(src, 2)
    expect(text).toMatch(/#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=[\d.]+/)
    expect(text).toMatch(/#EXT-X-PART:DURATION=[\d.]+,URI="[^"]+",INDEPENDENT=YES/)
    expect(text).toMatch(/#EXT-X-PROGRAM-DATE-TIME:20\d\d-/)
    expect(text).toMatch(/#EXT-X-MAP:URI="/)

    const second = encode(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`)
    expect(await second.exited).not.toBe(0)
    expect(second.stderr()).toMatch(/already has a publisher/)

    await expect
      .poll(
        async () => {
          const feed = await feedOf("Pushed")
          return feed?.state === "live" && feed.source === "RTMP from 127.0.0.1" && (feed.encoder?.fps ?? 0) > 0
        },
        { timeout: WAIT_MS }
      )
      .toBe(true)
    expect(packagingChildren()).toHaveLength(1)
  })

  it("shows a publisher that stops as a lost signal, and continues the same playlist after a discontinuity when it is back", async () => {
    const before = await livePlaylist(pushed.src)
    await pushed.encoder?.stop()
    await expect.poll(async () => (await feedOf("Pushed"))?.state, { timeout: WAIT_MS }).toBe("stalled")
    await expect.poll(async () => (await play(pushed.src)).json()?.reason, { timeout: WAIT_MS }).toBe("signalLost")
    await expect.poll(() => packagingChildren().length, { timeout: WAIT_MS }).toBe(0)

    pushed.encoder = encode(`rtmp://127.0.0.1:${rtmpPort}/live/${pushed.key}`)
    await expect.poll(async () => /#EXT-X-DISCONTINUITY\n/.test((await play(pushed.src)).body), { timeout: WAIT_MS }).toBe(true)
    const after = await livePlaylist(pushed.src)
    expect(sequenceOf(after)).toBeGreaterThanOrEqual(sequenceOf(before))
    expect(new Set([...after.matchAll(/#EXT-X-MAP:URI="([^"?]+)/g)].map((match) => match[1])).size).toBe(2)
    await expect.poll(async () => (await feedOf("Pushed"))?.state, { timeout: WAIT_MS }).toBe("live")
  })

  it("starts the channel's ffmpeg again when it dies, while the publisher stays connected", async () => {
    const [pid] = packagingChildren()
    expect(pid).toBeDefined()
    process.kill(pid!, "SIGKILL")
    await expect.poll(async () => (await feedOf("Pushed"))?.restarts ?? 0, { timeout: WAIT_MS }).toBeGreaterThanOrEqual(1)
    await expect.poll(() => packagingChildren().length === 1 && packagingChildren()[0] !== pid, { timeout: WAIT_MS }).toBe(true)
    await expect.poll(async () => (await feedOf("Pushed"))?.state, { timeout: WAIT_MS }).toBe("live")
    expect(pushed.encoder?.child.exitCode).toBeNull()
  })

  it("replaces the key: the publisher is let go, the old key is refused, the new one works over SRT", async () => {
    const rotated = await admin("stream:key", "--id", String(pushed.id), "--rotate")
    expect(rotated.code, rotated.output).toBe(0)
    const key = keyIn(rotated.output)
    expect(key).not.toBe(pushed.key)
    expect(rotated.output).toContain(`srt://127.0.0.1:${srtPort}?streamid=${key}`)
    // the encoder connected with the old key is disconnected
    await pushed.encoder?.exited
    const old = encode(`srt://127.0.0.1:${srtPort}?streamid=${pushed.key}`)
    expect(await old.exited).not.toBe(0)
    expect(old.stderr()).toMatch(/reject/i)

    pushed.encoder = encode(`srt://127.0.0.1:${srtPort}?streamid=${key}`)
    await livePlaylist(pushed.src, 2)
    await expect
      .poll(
        async () => {
          const feed = await feedOf("Pushed")
          return `${feed?.state} ${feed?.source}`
        },
        { timeout: WAIT_MS }
      )
      .toBe("live SRT from 127.0.0.1")
    const second = encode(`srt://127.0.0.1:${srtPort}?streamid=${key}`)
    expect(await second.exited).not.toBe(0)
  })

  it("protects an ingested channel as every other: grants, unknown addresses, the stream limit, staff ending a session", async () => {
    const text = await livePlaylist(pushed.src)
    const part = /#EXT-X-PART:[^\n]*URI="([^"]+)"/.exec(text)?.[1] ?? ""
    expect((await play(part, "10.81.0.1")).statusCode).toBe(200)
    // without the grant: refused, and the address is listed for staff
    expect((await play(part.split("?")[0] ?? "", "10.81.0.2")).statusCode).toBe(403)
    expect((await play(pushed.src.split("?")[0] ?? "", "10.81.0.3")).statusCode).toBe(403)
    await expect
      .poll(async () => ((await server.call("connections", { token: staffToken })).json() as { unknownIps: Array<string> }).unknownIps, {
        timeout: WAIT_MS
      })
      .toEqual(expect.arrayContaining(["10.81.0.2", "10.81.0.3"]))

    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    server.clock += 5_500
    try {
      await server.addUser({ email: "ingest-capped@example.com" })
      const home = await server.signIn("ingest-capped@example.com")
      const away = await server.signIn("ingest-capped@example.com")
      const streamsOf = async (session: string) =>
        (
          (await server.call("streams", { token: session })).json() as { data: Array<{ title: string; src: string; src_sldp: string }> }
        ).data.find((stream) => stream.title === "Pushed")
      const [mine, theirs] = [await streamsOf(home), await streamsOf(away)]
      expect((await play(mine?.src_sldp ?? "", "10.82.0.1")).statusCode).toBe(200)
      const refused = await play(theirs?.src ?? "", "10.82.1.1")
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toMatchObject({ reason: "limit" })

      const view = (await server.call("connections", { token: staffToken })).json() as {
        connections: Record<string, Array<{ id: number; stream: string }>>
      }
      const [connection] = view.connections["ingest-capped@example.com"] ?? []
      expect(connection?.stream).toBe("Pushed")
      expect((await server.call("endConnection", { token: staffToken, body: { id: connection?.id ?? 0 } })).json()).toEqual({
        success: true
      })
      const ended = await play(mine?.src_sldp ?? "", "10.82.0.1")
      expect(ended.statusCode).toBe(410)
      expect(ended.json()).toMatchObject({ reason: "staff" })
    } finally {
      await setSetting(server.db.kysely, "maxStreamsPerAccount", 0)
      server.clock += 5_500
    }
    await pushed.encoder?.stop()
  })

  it("takes audio-only and video-only sources", async () => {
    for (const tracks of ["audio", "video"] as const) {
      const { key, src } = await addIngest(`Only ${tracks}`)
      const encoder = encode(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, tracks)
      const text = await livePlaylist(src, 2)
      const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1] ?? ""
      const body = (await play(init)).rawPayload
      expect(body.includes(Buffer.from(tracks === "audio" ? "mp4a" : "avc1"))).toBe(true)
      expect(body.includes(Buffer.from(tracks === "audio" ? "avc1" : "mp4a"))).toBe(false)
      await encoder.stop()
    }
  })

  it("plays an encoder whose keyframes are far apart: parts not marked independent, segments growing past two seconds", async () => {
    const { key, src } = await addIngest("Sparse keyframes")
    // a keyframe every 5 s (x264's own parameters come after ffmpeg's -g)
    const encoder = startEncoder(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`, {
      tracks: "video",
      video: ["-x264-params", "keyint=125:min-keyint=125:scenecut=0"]
    })
    encoders.push(encoder)
    const text = await livePlaylist(src, 2)
    const durations = [...text.matchAll(/#EXTINF:([\d.]+)/g)].map((match) => Number(match[1]))
    expect(Math.max(...durations)).toBeGreaterThan(4)
    expect(text).toMatch(/#EXT-X-PART:DURATION=[\d.]+,URI="[^"]+"\n/)
    expect(text).toMatch(/#EXT-X-TARGETDURATION:[56]\n/)
    await encoder.stop()
  })

  it("closes what is not RTMP or SRT on the ingest ports without harm to anyone else", async () => {
    const sendTcp = (bytes: Buffer): Promise<void> =>
      new Promise((resolve) => {
        const socket = net.connect(rtmpPort, "127.0.0.1", () => socket.write(bytes))
        socket.on("error", () => resolve())
        socket.on("close", () => resolve())
        setTimeout(() => socket.destroy(), 3000)
      })
    const handshake = Buffer.concat([Buffer.from([3]), Buffer.alloc(1536), Buffer.alloc(1536)])
    const chunk = (header: Array<number>, body: Buffer = Buffer.alloc(0)) => Buffer.concat([handshake, Buffer.from(header), body])
    await Promise.all([
      // not RTMP at all
      sendTcp(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n".padEnd(2000, "x"))),
      sendTcp(randomBytes(5000)),
      // a chunk stream that starts without its full header; a message of 16 MB; a chunk size of 0
      sendTcp(chunk([0x43, 0, 0, 0])),
      sendTcp(chunk([0x03, 0, 0, 0, 0xff, 0xff, 0xff, 20, 0, 0, 0, 0])),
      sendTcp(chunk([0x02, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0], Buffer.from([0, 0, 0, 0]))),
      // a command that is not AMF0
      sendTcp(chunk([0x03, 0, 0, 0, 0, 0, 4, 20, 0, 0, 0, 0], Buffer.from([0x11, 0x22, 0x33, 0x44])))
    ])
    const socket = dgram.createSocket("udp4")
    const induction = Buffer.alloc(64)
    induction.writeUInt32BE(0x80000000, 0)
    induction.writeUInt32BE(4, 16)
    induction.writeUInt32BE(1, 36)
    const conclusion = Buffer.from(induction)
    conclusion.writeUInt32BE(5, 16)
    conclusion.writeUInt32BE(0xffffffff, 36)
    // datagrams that are not SRT, a conclusion without the cookie, a cut-short handshake
    for (const packet of [
      randomBytes(1316),
      Buffer.alloc(3),
      conclusion,
      induction.subarray(0, 40),
      Buffer.concat([conclusion, randomBytes(40)])
    ])
      await new Promise((resolve) => socket.send(packet, srtPort, "127.0.0.1", resolve))
    socket.close()
    // the server and both ports go on
    expect((await server.call("streams", { token })).statusCode).toBe(200)
    expect(await listens(rtmpPort)).toBe(true)
  })

  it("ends every ffmpeg it runs when the server stops", async () => {
    const { key } = await addIngest("Last")
    encode(`srt://127.0.0.1:${srtPort}?streamid=${key}`)
    await livePlaylist(await srcOf("Last"))
    expect(packagingChildren()).toHaveLength(1)
    disposed = true
    await server.dispose()
    // gone by the time the server has stopped, not a moment later
    expect(packagingChildren()).toEqual([])
    expect(await listens(rtmpPort)).toBe(false)
  })
})
