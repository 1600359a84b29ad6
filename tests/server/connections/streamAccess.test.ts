import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { LOW_LATENCY_PLAYER, sourceFor } from "../../../src/domain/playerChoice.ts"
import { grantOf } from "../../../src/domain/streamGrant.ts"
import { LIVE_REFUSALS_PER_WINDOW } from "../../../src/server/connections/streamGuard.ts"
import { UNKNOWN_VIEWER_ROWS } from "../../../src/server/connections/unknownViewersRepo.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { pruneHealthOverBudget } from "../../../src/server/telemetry/housekeeping.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

const MINUTE = 60_000

interface Listed {
  readonly id: number
  readonly title: string
  readonly src: string | null
  readonly src_sldp: string | null
}

describe.each(dialects)("stream grants, the origin's refusals and the account's limit ($name)", (dialect) => {
  let server: TestServer
  let staff: string
  const list = async (token: string): Promise<Array<Listed>> =>
    ((await server.call("streams", { token })).json() as { data: Array<Listed> }).data
  const play = (src: string | null, ip: string) => server.app.inject({ method: "GET", url: src ?? "/", remoteAddress: ip })
  const access = async (token: string, src: string | null, ip = "10.9.9.9") =>
    (await server.call("streamAccess", { token, ip, body: { grant: grantOf(src ?? "") ?? "" } })).json() as {
      access: string
      reason?: string
      maxStreams: number
      playing: Array<{ id: number; stream: string; device: string; network: string }>
    }
  const staffView = async () =>
    (await server.call("connections", { token: staff })).json() as {
      connections: Record<string, Array<{ id: number; ip: string; network: string; stream: string }>>
      unknownIps: Array<string>
    }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.db.kysely.deleteFrom("streams").execute()
    await insertStream(server.db.kysely, { title: "Sports One", src: "/live/demo1/index.m3u8", src_sldp: "/live/demo1/index.m3u8" })
    await insertStream(server.db.kysely, { title: "Sports Two", src: "/live/demo2/index.m3u8" })
    await insertStream(server.db.kysely, { title: "Elsewhere", src: "https://cdn.example.net/live/x/index.m3u8" })
    await insertStream(server.db.kysely, { title: "Ours, in full", src: "http://localhost:8080/live/demo2/index.m3u8" })
    await server.addUser({ email: "desk@example.com", staff: true })
    staff = await server.signIn("desk@example.com")
  })
  beforeEach(async () => {
    await server.db.kysely.deleteFrom("player_connections").execute()
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 2)
    server.clock += 10 * MINUTE
  })
  afterAll(() => server.dispose())

  const viewer = async () => {
    const email = `viewer-${Math.random().toString(36).slice(2)}@example.com`
    await server.addUser({ email })
    return email
  }

  it("signs our own origin's playlists for the session and passes other origins as they are", async () => {
    const token = await server.signIn(await viewer())
    const [one, two, elsewhere, full] = await list(token)
    expect(one?.src).toMatch(/^\/live\/demo1\/index\.m3u8\?grant=g1\.\d+\.\d+\.\d+\.tv\.demo1\.\d+\.[\w-]{22}$/)
    expect(one?.src_sldp).toMatch(/\.lls\.demo1\./)
    expect(two?.src).toMatch(/\?grant=/)
    expect(elsewhere?.src).toBe("https://cdn.example.net/live/x/index.m3u8")
    expect(full?.src).toMatch(/^http:\/\/localhost:8080\/live\/demo2\/index\.m3u8\?grant=/)
    expect((await play(one?.src ?? null, "10.5.0.1")).statusCode).toBe(200)
    const low = await play(`${one?.src_sldp ?? ""}&_HLS_msn=1`, "10.5.0.1")
    expect(low.statusCode).toBe(200)
  })

  it("refuses a playlist without a valid grant (none, tampered, another channel's) with 403 and lists the address as unknown", async () => {
    const token = await server.signIn(await viewer())
    const [one] = await list(token)
    const src = one?.src ?? ""
    const tampered = src.replace(/.$/, (last) => (last === "A" ? "B" : "A"))
    const refusals = await Promise.all([
      play("/live/demo1/index.m3u8", "10.6.0.1"),
      play(tampered, "10.6.0.2"),
      play(src.replace("/live/demo1/", "/live/demo2/"), "10.6.0.3")
    ])
    expect(refusals.map((response) => response.statusCode)).toEqual([403, 403, 403])
    expect(refusals[0]?.json()).toMatchObject({ success: false, status: 403, reason: "invalid" })
    await expect.poll(async () => (await staffView()).unknownIps.sort()).toEqual(["10.6.0.1", "10.6.0.2", "10.6.0.3"])
  })

  it("lists a host rotating through the addresses of its IPv6 /64 as one unknown network", async () => {
    server.clock += 2 * MINUTE
    const refused = await Promise.all(
      Array.from({ length: 20 }, (_, n) => play("/live/demo1/index.m3u8", `2001:db8:77:1::${(n + 1).toString(16)}`))
    )
    expect(refused.every((response) => response.statusCode === 403)).toBe(true)
    await expect
      .poll(async () => (await staffView()).unknownIps.filter((ip) => ip.startsWith("2001:db8:77:")))
      .toEqual(["2001:db8:77:1::/64"])
  })

  it("records no more than 50 refused addresses a second, however many ask", async () => {
    server.clock += 2 * MINUTE
    const before = (await staffView()).unknownIps.length
    await Promise.all(Array.from({ length: 120 }, (_, n) => play("/live/demo1/index.m3u8", `10.14.${n >> 8}.${n & 255}`)))
    server.clock += 1000
    await play("/live/demo1/index.m3u8", "10.14.9.9")
    await expect.poll(async () => (await staffView()).unknownIps.filter((ip) => ip.startsWith("10.14.")).length).toBe(51)
    expect(before).toBeLessThan(120)
  })

  it("answers a network's flood of refused playlist requests 429 after a hundred in ten seconds, never a viewer with a grant there", async () => {
    server.clock += 2 * MINUTE
    const token = await server.signIn(await viewer())
    const [one] = await list(token)
    const refused = []
    for (let n = 0; n < LIVE_REFUSALS_PER_WINDOW; n++)
      refused.push((await play("/live/demo1/index.m3u8", `2001:db8:99:1::${n + 1}`)).statusCode)
    expect(refused.every((status) => status === 403)).toBe(true)
    const flooded = await play("/live/demo2/index.m3u8", "2001:db8:99:1::ffff")
    expect(flooded.statusCode).toBe(429)
    expect(flooded.headers["retry-after"]).toBe("10")
    expect(flooded.json()).toEqual({
      success: false,
      status: 429,
      detail: "Too many refused stream requests from your network. Try again in 10 seconds."
    })
    // the same /64 with a valid grant plays on; another network is refused as usual
    expect((await play(one?.src ?? null, "2001:db8:99:1::42")).statusCode).toBe(200)
    expect((await play("/live/demo1/index.m3u8", "2001:db8:99:2::1")).statusCode).toBe(403)
    server.clock += 10_000
    expect((await play("/live/demo1/index.m3u8", "2001:db8:99:1::1")).statusCode).toBe(403)
  })

  it("keeps the newest 10,000 refused networks at most, however many a flood brings", async () => {
    const db = server.db.kysely
    await db.deleteFrom("unknown_viewers").execute()
    const rows = Array.from({ length: UNKNOWN_VIEWER_ROWS + 30 }, (_, n) => ({
      ip: `10.200.${n >> 8}.${n & 255}`,
      channel: "demo1",
      first_seen: new Date(server.clock + n * 1000).toISOString(),
      last_seen: new Date(server.clock + n * 1000).toISOString()
    }))
    for (let start = 0; start < rows.length; start += 1000)
      await db
        .insertInto("unknown_viewers")
        .values(rows.slice(start, start + 1000))
        .execute()
    await pruneHealthOverBudget(db, { batch: 16 })
    const left = await db.selectFrom("unknown_viewers").select("ip").orderBy("last_seen").execute()
    expect(left).toHaveLength(UNKNOWN_VIEWER_ROWS)
    expect(left[0]?.ip).toBe(rows[30]?.ip)
  })

  it("opens a grant within two minutes of signing; an open connection keeps it alive; a signed-out session's grants die", async () => {
    const email = await viewer()
    const token = await server.signIn(email)
    const [, two] = await list(token)
    server.clock += 2 * MINUTE + 1
    expect((await play(two?.src ?? null, "10.7.0.1")).json()).toMatchObject({ status: 403, reason: "expired" })
    expect((await access(token, two?.src ?? null)).access).toBe("expired")
    const [fresh] = await list(token)
    expect((await play(fresh?.src ?? null, "10.7.0.1")).statusCode).toBe(200)
    for (let i = 0; i < 4; i++) {
      server.clock += 60_000
      expect((await play(fresh?.src ?? null, "10.7.0.1")).statusCode).toBe(200)
    }
    // the origin notes a playing player's presence a few times a minute, in the background
    await expect
      .poll(async () => (await staffView()).connections[email])
      .toEqual([expect.objectContaining({ stream: "Sports One", ip: "10.7.0.1" })])
    await server.call("logout", { token })
    server.clock += 3000
    expect((await play(fresh?.src ?? null, "10.7.0.1")).json()).toMatchObject({ status: 403, reason: "signedOut" })
  })

  it("holds an account to maxStreamsPerAccount across networks: the player is told where the others play and may end the oldest", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    const email = await viewer()
    const home = await server.signIn(email)
    const away = await server.signIn(email)
    const [homeOne] = await list(home)
    const [, awayTwo] = await list(away)
    expect((await play(homeOne?.src ?? null, "10.8.0.1")).statusCode).toBe(200)
    server.clock += 1000
    const refused = await play(awayTwo?.src ?? null, "10.8.1.1")
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ reason: "limit" })
    const told = await access(away, awayTwo?.src ?? null, "10.8.1.1")
    expect(told).toMatchObject({ access: "limit", maxStreams: 1, playing: [{ stream: "Sports One", network: "10.8.0.*" }] })
    expect(JSON.stringify(told)).not.toContain("10.8.0.1")

    // another account's connection is not this one's to end
    const stranger = await server.signIn(await viewer())
    expect((await server.call("endStream", { token: stranger, body: { id: told.playing[0]?.id ?? 0 } })).json()).toMatchObject({
      success: false
    })
    expect((await server.call("endStream", { token: away, body: { id: told.playing[0]?.id ?? 0 } })).json()).toEqual({ success: true })
    expect((await play(awayTwo?.src ?? null, "10.8.1.1")).statusCode).toBe(200)
    const ended = await play(homeOne?.src ?? null, "10.8.0.1")
    expect(ended.statusCode).toBe(410)
    expect(await access(home, homeOne?.src ?? null, "10.8.0.1")).toMatchObject({ access: "ended", reason: "replaced" })
    expect(Object.values((await staffView()).connections[email] ?? [])).toHaveLength(1)
  })

  it("answers an edge's grant check with 204 and no body when admitted, 403 for every refusal (the edge then asks in full)", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    const check = (src: string | null, ip: string) =>
      server.app.inject({ method: "GET", url: src ?? "/", remoteAddress: ip, headers: { "x-grant-check": "1" } })
    const home = await server.signIn(await viewer())
    const [one, two] = await list(home)
    const admitted = await check(one?.src ?? null, "10.7.0.1")
    expect(admitted.statusCode).toBe(204)
    expect(admitted.body).toBe("")
    // the account's second stream elsewhere: refused for its limit, which nginx's auth_request can only take as 403
    server.clock += 1000
    const otherEmail = await viewer()
    const [, otherTwo] = await list(await server.signIn(otherEmail))
    expect((await check(otherTwo?.src ?? null, "10.7.2.1")).statusCode).toBe(204)
    const [, again] = await list(await server.signIn(otherEmail))
    const limited = await check(again?.src ?? null, "10.7.1.1")
    expect(limited.statusCode).toBe(403)
    expect(limited.json()).toMatchObject({ reason: "limit", status: 403 })
    expect((await play(again?.src ?? null, "10.7.1.1")).statusCode).toBe(429)
    expect((await check(two?.src?.split("?")[0] ?? null, "10.7.0.2")).statusCode).toBe(403)
  })

  it("sends a player page's first playlist with the list, fetched as the player would: the same grant check, the same connection", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    const email = await viewer()
    const home = await server.signIn(email)
    const start = async (token: string, query: { start?: string; player?: string }, ip = "10.7.0.1") => {
      const answer = await server.call("streams", { token, ip, query })
      expect(answer.statusCode).toBe(200)
      return answer.json() as { data: Array<Listed>; playlist?: { url: string; text: string } }
    }
    const tv = await start(home, { start: "1", player: "1" })
    expect(tv.playlist?.url).toBe(tv.data[1]?.src)
    expect(tv.playlist?.text).toMatch(/^#EXTM3U\n[\s\S]*#EXTINF:[\d.]+,\nseg\/\d+\.ts\n/)
    // the connection is open, from the viewer's address, as after the player's own request
    expect((await staffView()).connections[email]).toEqual([expect.objectContaining({ ip: "10.7.0.1", stream: "Sports Two" })])
    // the same grant plays on: the player's next reload is the same connection
    expect((await play(tv.playlist?.url ?? null, "10.7.0.1")).statusCode).toBe(200)
    expect((await staffView()).connections[email]).toHaveLength(1)

    // the low-latency player's source; none for another origin's stream, a stream past the end or no player
    const low = await start(home, { start: "0", player: "2" })
    expect(low.playlist?.url).toBe(low.data[0]?.src_sldp)
    for (const query of [{ start: "2", player: "1" }, { start: "9", player: "1" }, { start: "0" }, {}]) {
      expect(await start(home, query), JSON.stringify(query)).not.toHaveProperty("playlist")
    }

    // over the account's limit the origin refuses: no playlist, the list as ever, and the player hears why itself
    server.clock += 1000
    const away = await server.signIn(email)
    const refused = await start(away, { start: "1", player: "1" }, "10.7.9.9")
    expect(refused).not.toHaveProperty("playlist")
    expect(refused.data).toHaveLength(4)
    expect((await play(refused.data[1]?.src ?? null, "10.7.9.9")).statusCode).toBe(429)

    for (const query of [
      { start: "one", player: "1" },
      { start: "0", player: "3" },
      { start: "12345", player: "1" }
    ]) {
      expect((await server.call("streams", { token: home, query })).statusCode, JSON.stringify(query)).toBe(400)
    }
  })

  it("counts the same channel twice from one network once, lets a session switch streams, and counts nothing at 0", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    const email = await viewer()
    const tv = await server.signIn(email)
    const phone = await server.signIn(email)
    const [tvOne, tvTwo] = await list(tv)
    const [phoneOne, phoneTwo] = await list(phone)
    expect((await play(tvOne?.src ?? null, "10.10.0.1")).statusCode).toBe(200)
    expect((await play(phoneOne?.src ?? null, "10.10.0.1")).statusCode).toBe(200)
    // a second channel at home is a second stream
    expect((await play(phoneTwo?.src ?? null, "10.10.0.1")).statusCode).toBe(429)
    // the phone stops; the TV switches channels: still one stream
    await server.app.inject({
      method: "POST",
      url: "/api/streams/close",
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ grant: grantOf(phoneOne?.src ?? "") })
    })
    expect((await play(tvTwo?.src ?? null, "10.10.0.1")).statusCode).toBe(200)
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 0)
    server.clock += 5001
    expect((await play(phoneTwo?.src ?? null, "10.10.0.2")).statusCode).toBe(200)
  })

  it("groups IPv6 by /64, and a household switching channels is one connection, never two", async () => {
    const email = await viewer()
    const token = await server.signIn(email)
    const [one, two] = await list(token)
    expect((await play(one?.src ?? null, "2001:db8:1:2::10")).statusCode).toBe(200)
    server.clock += 5000
    expect((await play(two?.src ?? null, "2001:db8:1:2:aaaa::20")).statusCode).toBe(200)
    const entries = (await staffView()).connections[email] ?? []
    expect(entries).toEqual([expect.objectContaining({ stream: "Sports Two", network: "2001:db8:1:2::/64", ip: "2001:db8:1:2:aaaa::20" })])
  })

  it("shows a second screen of the household to staff within seconds of its start", async () => {
    const email = await viewer()
    const [one] = await list(await server.signIn(email))
    const [, two] = await list(await server.signIn(email))
    expect((await play(one?.src ?? null, "10.13.0.1")).statusCode).toBe(200)
    server.clock += 1000
    expect((await play(two?.src ?? null, "10.13.0.1")).statusCode).toBe(200)
    // the first screen's players go on asking for their playlist; past the grace they show again
    for (let second = 0; second < 7; second += 1) {
      server.clock += 1000
      expect((await play(one?.src ?? null, "10.13.0.1")).statusCode).toBe(200)
    }
    await expect
      .poll(async () => ((await staffView()).connections[email] ?? []).map((entry) => entry.stream).sort())
      .toEqual(["Sports One", "Sports Two"])
  })

  it("lets staff end any connection: the player is refused at its next playlist and told why", async () => {
    const email = await viewer()
    const token = await server.signIn(email)
    const [one] = await list(token)
    expect((await play(one?.src ?? null, "10.11.0.1")).statusCode).toBe(200)
    const [entry] = (await staffView()).connections[email] ?? []
    expect((await server.call("endConnection", { token, body: { id: entry?.id ?? 0 } })).statusCode).toBe(403)
    expect((await server.call("endConnection", { token: staff, body: { id: entry?.id ?? 0 } })).json()).toEqual({ success: true })
    expect((await server.call("endConnection", { token: staff, body: { id: entry?.id ?? 0 } })).json()).toMatchObject({ success: false })
    expect((await play(one?.src ?? null, "10.11.0.1")).json()).toMatchObject({ status: 410, reason: "staff" })
    expect(await access(token, one?.src ?? null)).toMatchObject({ access: "ended", reason: "staff" })
    expect((await staffView()).connections[email]).toBeUndefined()
    // a fresh start from the site is a new grant, which opens again
    server.clock += 1000
    const [again] = await list(token)
    expect((await play(again?.src ?? null, "10.11.0.1")).statusCode).toBe(200)
  })

  it("forgets a stopped player at once (its page's beacon), and the answer tells a stranger nothing", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    const email = await viewer()
    const home = await server.signIn(email)
    const away = await server.signIn(email)
    const [homeOne] = await list(home)
    const [awayOne] = await list(away)
    expect((await play(homeOne?.src ?? null, "10.12.0.1")).statusCode).toBe(200)
    expect((await play(awayOne?.src ?? null, "10.12.1.1")).statusCode).toBe(429)
    const beacon = (grant: string) =>
      server.app.inject({
        method: "POST",
        url: "/api/streams/close",
        headers: { "content-type": "text/plain;charset=UTF-8" },
        payload: JSON.stringify({ grant })
      })
    expect((await beacon("g1.made.up")).json()).toEqual({ success: true })
    expect((await beacon(grantOf(homeOne?.src ?? "") ?? "")).json()).toEqual({ success: true })
    expect((await staffView()).connections[email]).toBeUndefined()
    expect((await play(awayOne?.src ?? null, "10.12.1.1")).statusCode).toBe(200)
    expect((await staffView()).connections[email]).toEqual([expect.objectContaining({ ip: "10.12.1.1" })])
  })

  it("gives the low-latency player of a stream with no low-latency source a grant of its own: one connection, ended by its beacon", async () => {
    await setSetting(server.db.kysely, "maxStreamsPerAccount", 1)
    const email = await viewer()
    const home = await server.signIn(email)
    const away = await server.signIn(email)
    const two = (await list(home))[1]
    // what the low-latency player plays, as the page picks it: the TV player's address, under its own grant
    const source = sourceFor(two, LOW_LATENCY_PLAYER)
    expect(two?.src).toMatch(/^\/live\/demo2\/index\.m3u8\?grant=g1\..+\.tv\.demo2\./)
    expect(source).toMatch(/^\/live\/demo2\/index\.m3u8\?grant=g1\..+\.lls\.demo2\./)
    expect((await play(source, "10.14.0.1")).statusCode).toBe(200)
    // its heartbeats (the low-latency player's pings) are the same connection as its playlists
    const ping = await server.call("analytics", {
      token: home,
      ip: "10.14.0.1",
      params: { videoType: "live", siteGroupId: "streamhub", event: "ping" },
      body: {
        session_id: "player-session",
        sitegroup_id: "streamhub",
        media_id: String(two?.id),
        site_id: "web",
        player_id: "lls",
        video_type: "live",
        created: 0,
        position: 60,
        player_version: "3.4.5",
        source: "hls",
        category: "",
        category_id: "",
        autoplay: true,
        muted: false,
        customer_user_id: ""
      }
    })
    expect(ping.statusCode).toBe(200)
    expect((await staffView()).connections[email]).toEqual([expect.objectContaining({ ip: "10.14.0.1", stream: "Sports Two" })])
    // the tab closes: its beacon ends that connection, and another device is not told it still plays
    const beacon = await server.app.inject({
      method: "POST",
      url: "/api/streams/close",
      headers: { "content-type": "text/plain;charset=UTF-8" },
      payload: JSON.stringify({ grant: grantOf(source ?? "") })
    })
    expect(beacon.json()).toEqual({ success: true })
    expect((await staffView()).connections[email]).toBeUndefined()
    const [awayOne] = await list(away)
    expect((await access(away, awayOne?.src ?? null, "10.14.1.1")).playing).toEqual([])
    expect((await play(awayOne?.src ?? null, "10.14.1.1")).statusCode).toBe(200)
  })

  it("shows each stream's quality over the last hour: viewers now, median time to first picture, rebuffering and errors", async () => {
    const email = await viewer()
    const token = await server.signIn(email)
    const [one, two] = await list(token)
    expect((await play(one?.src ?? null, "10.13.0.1")).statusCode).toBe(200)
    const record = (session: string, media: string, event: string, clientTime: number, extra: Record<string, unknown> = {}) => ({
      session_id: session,
      device_id: "d",
      version: "3.4.5",
      source: "hls",
      page_url: "/player",
      event,
      current_time: 0,
      client_time: clientTime,
      adjusted_time: clientTime,
      ids: { media_id: media, site_id: "web", sitegroup_id: "default", player_id: "tv" },
      plugins: [],
      ...extra
    })
    const beacon = (events: Array<unknown>) =>
      server.app.inject({
        method: "POST",
        url: "/api/health-events",
        headers: { "content-type": "text/plain" },
        payload: JSON.stringify({ token, events })
      })
    const oneId = String(one?.id)
    const twoId = String(two?.id)
    // three starts of stream one; 59 s played, then a 3 s stall split across two beacons; an error on stream two
    await beacon([
      record("a", oneId, "firstframe", 1000, { first_frame_ms: 800 }),
      record("a", oneId, "waiting", 900),
      record("a", oneId, "playing", 1000),
      record("b", oneId, "firstframe", 1000, { first_frame_ms: 1200 }),
      record("c", oneId, "firstframe", 1000, { first_frame_ms: 2000 }),
      record("a", oneId, "timeupdate", 30_000),
      record("a", oneId, "waiting", 60_000)
    ])
    await beacon([record("a", oneId, "playing", 63_000), record("z", twoId, "error", 5000)])
    server.clock += 11_000
    const streams = (await server.call("connections", { token: staff })).json() as { streams: Array<Record<string, unknown>> }
    expect(streams.streams).toEqual([
      { streamId: oneId, stream: "Sports One", viewers: 1, medianFirstFrameMs: 1200, rebufferingRatio: 3000 / 62_000, errors: 0 },
      { streamId: twoId, stream: "Sports Two", viewers: 0, medianFirstFrameMs: null, rebufferingRatio: null, errors: 1 }
    ])
  })
})
