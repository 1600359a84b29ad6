import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { grantOf } from "../../../src/domain/streamGrant.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

/** A port nothing listens on: one just given up. */
const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const uris = (playlist: string): Array<string> => [
  ...playlist.split("\n").filter((line) => line !== "" && !line.startsWith("#")),
  ...[...playlist.matchAll(/URI="([^"]+)"/g)].map((match) => match[1] ?? "")
]

describe.each(dialects)("a relayed channel through our own origin ($name)", (dialect) => {
  let server: TestServer
  let upstream: Upstream
  const admin = async (...argv: Array<string>) => {
    const lines: Array<string> = []
    const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db, now: () => server.clock })
    return { code, output: lines.join("\n") }
  }
  const play = (url: string, ip = "10.40.0.1") => server.app.inject({ method: "GET", url, remoteAddress: ip })
  const streamsOf = async (token: string) =>
    (
      (await server.call("streams", { token })).json() as {
        data: Array<{ id: number; title: string; src: string | null; src_sldp: string | null }>
      }
    ).data

  beforeAll(async () => {
    upstream = await startUpstream()
    server = await startTestServer(dialect)
    await server.db.kysely.deleteFrom("streams").execute()
  })
  afterAll(async () => {
    await server.dispose()
    await upstream.stop()
  })

  it("refuses an upstream that is not a URL, does not answer, or is not a playlist, in one line, and adds nothing", async () => {
    const cases: Array<[string, RegExp]> = [
      ["not a url", /is not a URL/],
      ["ftp://example.com/x.m3u8", /not an http\(s\) URL/],
      [`http://127.0.0.1:${await closedPort()}/x.m3u8`, /cannot reach the upstream \(ECONNREFUSED/],
      [`${upstream.url}/html`, /not a playlist/],
      [`${upstream.url}/huge.m3u8`, /more than the \d+ (bytes )?allowed/],
      [`${upstream.url}/loop`, /cannot reach the upstream .*redirect/i],
      [`${upstream.url}/broken.m3u8`, /answered 500/]
    ]
    for (const [url, reason] of cases) {
      const { code, output } = await admin("stream:add", "--title", "Nope", "--relay", url)
      expect(code, output).toBe(1)
      expect(output).toMatch(reason)
      expect(output.split("\n")).toHaveLength(1)
    }
    const { code, output } = await admin(
      "stream:add",
      "--title",
      "Nope",
      "--relay",
      `${upstream.url}/live/demo1/ll.m3u8`,
      "--header",
      "no colon"
    )
    expect(code).toBe(1)
    expect(output).toMatch(/--header must be "Name: value"/)
    expect(await server.db.kysely.selectFrom("streams").selectAll().execute()).toEqual([])
  })

  it("adds a relay whose players open our own playlist, signed per session, and never see the upstream", async () => {
    const added = await admin(
      "stream:add",
      "--title",
      "Relayed LL",
      "--relay",
      `${upstream.url}/live/demo1/ll.m3u8`,
      "--header",
      "X-Token: s3cret"
    )
    expect(added.code, added.output).toBe(0)
    expect(added.output).toMatch(
      /^Added stream \d+: Relayed LL \(relay of LL-HLS media playlist \(parts, blocking reload\), on demand; players open \/live\/relay\d+\/index\.m3u8\)$/
    )
    const classic = await admin("stream:add", "--title", "Relayed classic", "--relay", `${upstream.url}/live/demo2/index.m3u8`)
    expect(classic.code, classic.output).toBe(0)
    await server.addUser({ email: "relay-viewer@example.com" })
    const token = await server.signIn("relay-viewer@example.com")
    const response = await server.call("streams", { token })
    expect(response.body).not.toContain("127.0.0.1")
    expect(response.body).not.toContain("s3cret")
    const [ll, tv] = await streamsOf(token)
    expect(ll?.src).toMatch(/^\/live\/relay\d+\/index\.m3u8\?grant=g1\.[^&]+\.tv\.relay\d+\./)
    expect(ll?.src_sldp).toMatch(/\.lls\.relay\d+\./)
    expect(tv?.src).toMatch(/^\/live\/relay\d+\/index\.m3u8\?grant=/)

    const list = await admin("stream:list")
    expect(list.output).toMatch(/Relayed LL\s+\/live\/relay\d+\/index\.m3u8\s+relay\s/)
    expect(list.output).toMatch(/relays http:\/\/127\.0\.0\.1:\d+\/live\/demo1\/ll\.m3u8 with 1 header$/m)
  })

  it("serves the relayed playlists with every URI ours and carrying the grant; media need the grant too", async () => {
    const token = await server.signIn("relay-viewer@example.com")
    const [ll, tv] = await streamsOf(token)
    for (const src of [ll?.src_sldp ?? "", tv?.src ?? ""]) {
      const grant = grantOf(src) ?? ""
      const playlist = await play(src)
      expect(playlist.statusCode, playlist.body).toBe(200)
      expect(playlist.headers["content-type"]).toBe("application/vnd.apple.mpegurl")
      expect(playlist.body).toMatch(/#EXT-X-PROGRAM-DATE-TIME:/)
      expect(playlist.body).not.toContain("127.0.0.1")
      const named = uris(playlist.body)
      expect(named.length).toBeGreaterThan(3)
      for (const uri of named)
        expect(uri).toMatch(new RegExp(`^/live/relay\\d+/m/[\\w-]{22}\\.ts\\?grant=${grant.replaceAll(".", "\\.")}$`))
      const segment = named.find((uri) => !playlist.body.includes(`PRELOAD-HINT:TYPE=PART,URI="${uri}"`)) ?? ""
      const media = await play(segment)
      expect(media.statusCode).toBe(200)
      expect(media.headers["content-type"]).toBe("video/mp2t")
      expect(media.rawPayload[0]).toBe(0x47)
      // written afresh per viewer and part, a live playlist goes as it is: compressing each costs more than it saves
      const offered = await server.app.inject({
        method: "GET",
        url: src,
        remoteAddress: "10.40.0.1",
        headers: { "accept-encoding": "br, gzip" }
      })
      expect(offered.headers["content-encoding"]).toBeUndefined()
      // a Cast device is sent our address with the grant, and its receiver page reads both from Google's origin
      for (const url of [src, segment]) {
        const cast = await server.app.inject({
          method: "GET",
          url,
          remoteAddress: "10.40.0.1",
          headers: { origin: "https://www.gstatic.com" }
        })
        expect(cast.statusCode).toBe(200)
        expect(cast.headers["access-control-allow-origin"]).toBe("https://www.gstatic.com")
      }
      // without the grant, or with another channel's, nothing
      expect((await play(segment.split("?")[0] ?? "", "10.41.0.1")).statusCode).toBe(403)
      expect((await play(src.split("?")[0] ?? "", "10.41.0.2")).statusCode).toBe(403)
    }
    const staff = await server.addUser({ email: "relay-staff@example.com", staff: true })
    const view = (await server.call("connections", { token: await server.signIn(staff.email) })).json() as { unknownIps: Array<string> }
    expect(view.unknownIps).toEqual(expect.arrayContaining(["10.41.0.1", "10.41.0.2"]))
  })

  it("fetches each segment and part from the upstream once, however many viewers ask at once", async () => {
    const tokens = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const email = `relay-many-${i}@example.com`
        await server.addUser({ email })
        return server.signIn(email)
      })
    )
    const sources = (await Promise.all(tokens.map(streamsOf))).map((streams) => streams[0]?.src_sldp ?? "")
    const playlists = await Promise.all(sources.flatMap((src, i) => [play(src, `10.42.0.${i}`), play(src, `10.42.1.${i}`)]))
    for (const playlist of playlists) expect(playlist.statusCode).toBe(200)
    // every viewer asks for the same newest media at once: the newest whole segment and the newest part
    const latest = (body: string) => {
      const named = uris(body).filter((uri) => !body.includes(`PRELOAD-HINT:TYPE=PART,URI="${uri}"`))
      return [...new Set(named.map((uri) => uri.split("?")[0] ?? ""))].slice(-2)
    }
    const wanted = latest(playlists[0]?.body ?? "")
    const before = upstream.count("/live/demo1/")
    const answers = await Promise.all(
      sources.flatMap((src, i) => wanted.map((path) => play(`${path}?grant=${grantOf(src)}`, `10.42.2.${i}`)))
    )
    for (const answer of answers) expect(answer.statusCode).toBe(200)
    const mediaFetched = [...upstream.counts].filter(([path]) => /\/live\/demo1\/(seg|part)\//.test(path))
    expect(
      mediaFetched.every(([, n]) => n === 1),
      JSON.stringify(mediaFetched)
    ).toBe(true)
    // the playlists: one upstream request per new version, not one per viewer
    expect(upstream.count("/live/demo1/") - before).toBeLessThanOrEqual(wanted.length + 10)
  })

  it("holds a blocking reload until the part exists, answering from our copy of the upstream's playlist", async () => {
    const token = await server.signIn("relay-viewer@example.com")
    const [ll] = await streamsOf(token)
    const src = ll?.src_sldp ?? ""
    const first = await play(src)
    const msn = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(first.body)?.[1])
    const segments = first.body.split("\n").filter((line) => line.startsWith("#EXTINF")).length
    const edge = msn + segments
    const parts = first.body
      .slice(first.body.lastIndexOf("#EXTINF"))
      .split("\n")
      .filter((line) => line.startsWith("#EXT-X-PART:")).length
    const held = await play(`${src}&_HLS_msn=${edge}&_HLS_part=${parts}`)
    expect(held.statusCode).toBe(200)
    const heldEdge =
      Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(held.body)?.[1]) + held.body.split("\n").filter((line) => line.startsWith("#EXTINF")).length
    const heldParts = held.body
      .slice(held.body.lastIndexOf("#EXTINF"))
      .split("\n")
      .filter((line) => line.startsWith("#EXT-X-PART:")).length
    expect(heldEdge > edge || heldParts > parts).toBe(true)
    expect((await play(`${src}&_HLS_msn=${edge + 5}`)).statusCode).toBe(400)
    expect((await play(`${src}&_HLS_part=1`)).statusCode).toBe(400)
  })

  it("tells viewers the signal was lost while the upstream is away, and plays on without going back when it returns", async () => {
    const token = await server.signIn("relay-viewer@example.com")
    const [, tv] = await streamsOf(token)
    const src = tv?.src ?? ""
    const before = await play(src)
    expect(before.statusCode).toBe(200)
    const sequenceBefore = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(before.body)?.[1])
    await upstream.stop()
    server.clock += 20_000
    await expect
      .poll(
        async () => {
          const answer = await play(src)
          return [answer.statusCode, answer.json().reason]
        },
        { timeout: WAIT_MS }
      )
      .toEqual([503, "signalLost"])
    const lost = await play(src)
    expect(lost.json().detail).toBe("The channel's signal was lost. Trying again…")
    expect(lost.headers["retry-after"]).toBe("2")
    // staff see the feed's state and why, beside the live connections
    const staffToken = await server.signIn("relay-staff@example.com")
    const feedOf = async () =>
      ((await server.call("connections", { token: staffToken })).json() as { feeds: Array<Record<string, unknown>> }).feeds.find(
        (feed) => feed.stream === "Relayed classic"
      )
    await expect.poll(async () => (await feedOf())?.state, { timeout: WAIT_MS }).toMatch(/^(stalled|failed)$/)
    await expect.poll(async () => String((await feedOf())?.lastError), { timeout: WAIT_MS }).toMatch(/cannot reach the upstream/)
    await upstream.start()
    await expect.poll(async () => (await play(src)).statusCode, { timeout: WAIT_MS }).toBe(200)
    await expect.poll(async () => (await feedOf())?.state, { timeout: WAIT_MS }).toBe("live")
    expect(await feedOf()).toMatchObject({ upstreamStatus: 200, viewers: expect.any(Number), restarts: expect.any(Number) })
    const after = await play(src)
    expect(Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(after.body)?.[1])).toBeGreaterThanOrEqual(sequenceBefore)
  })

  it("stops pulling from the upstream a while after the last viewer, and starts again with the next", async () => {
    server.clock += 61_000
    // the feeds are looked at every couple of seconds
    await expect
      .poll(
        async () => {
          const count = upstream.count("/live/")
          await new Promise((resolve) => setTimeout(resolve, 1500))
          return upstream.count("/live/") - count
        },
        { timeout: WAIT_MS }
      )
      .toBe(0)
    const list = await admin("stream:list")
    expect(list.output).toMatch(/Relayed classic\s+\S+\s+relay\s+idle/)
    const token = await server.signIn("relay-viewer@example.com")
    const [, tv] = await streamsOf(token)
    expect((await play(tv?.src ?? "")).statusCode).toBe(200)
  })

  it("holds the account to its stream limit on relayed channels, and staff end a relayed viewer like any other", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    // the limit is read again once the last reading is five seconds old (the feeds count a stall only past six)
    server.clock += 5_500
    try {
      await server.addUser({ email: "relay-capped@example.com" })
      const home = await server.signIn("relay-capped@example.com")
      const away = await server.signIn("relay-capped@example.com")
      const [ll] = await streamsOf(home)
      const [awayLl, tv] = await streamsOf(away)
      expect((await play(ll?.src_sldp ?? "", "10.43.0.1")).statusCode).toBe(200)
      const refused = await play(tv?.src ?? "", "10.43.1.1")
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toMatchObject({ reason: "limit" })
      // refused at the playlist, and at the media too
      const segment = uris((await play(ll?.src_sldp ?? "", "10.43.0.1")).body).at(0) ?? ""
      expect((await play(segment.replace(/grant=[^&]+/, `grant=${grantOf(awayLl?.src_sldp ?? "")}`), "10.43.1.1")).statusCode).toBe(429)

      const staff = await server.signIn("relay-staff@example.com")
      const view = (await server.call("connections", { token: staff })).json() as {
        connections: Record<string, Array<{ id: number; stream: string }>>
      }
      const [connection] = view.connections["relay-capped@example.com"] ?? []
      expect(connection?.stream).toBe("Relayed LL")
      expect((await server.call("endConnection", { token: staff, body: { id: connection?.id ?? 0 } })).json()).toEqual({ success: true })
      const ended = await play(ll?.src_sldp ?? "", "10.43.0.1")
      expect(ended.statusCode).toBe(410)
      expect(ended.json()).toMatchObject({ reason: "staff" })
      expect((await play(segment, "10.43.0.1")).statusCode).toBe(410)
    } finally {
      await setSetting(server.db.kysely, "maxStreamsPerAccount", 0)
      server.clock += 5_500
    }
  })

  it("turns an external stream into a relay with one command", async () => {
    const external = await admin("stream:add", "--title", "Outside", "--src", `${upstream.url}/live/demo2/index.m3u8`)
    expect(external.code).toBe(0)
    const id = /Added stream (\d+)/.exec(external.output)?.[1] ?? ""
    expect((await admin("stream:list")).output).toMatch(
      /Outside\s+http:\/\/127\.0\.0\.1:\d+\/live\/demo2\/index\.m3u8\s+external, unprotected/
    )
    const relayed = await admin("stream:relay", "--id", id, "--always-on")
    expect(relayed.code, relayed.output).toBe(0)
    expect(relayed.output).toBe(`Stream ${id} is a relay of HLS media playlist, always on; players open /live/relay${id}/index.m3u8`)
    expect((await admin("stream:list")).output).toMatch(new RegExp(`Outside\\s+/live/relay${id}/index\\.m3u8\\s+relay \\(always on\\)`))
    expect((await admin("stream:relay", "--id", "9999")).code).toBe(1)
  })
})
