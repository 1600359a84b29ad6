import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { admin, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { type Encoder, freePorts, startEncoder } from "../../support/ffmpegEncoder.ts"
import { hasFfmpeg, startTsBroadcast, type TsBroadcast } from "../../support/ffmpegUpstream.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"

const postgres = dialects.find((dialect) => dialect.name === "postgres")
const PASSWORD = "relay instances password"

const mediaUris = (playlist: string): Array<string> =>
  [
    ...playlist.split("\n").filter((line) => line !== "" && !line.startsWith("#")),
    ...[...playlist.matchAll(/URI="([^"]+)"/g)].map((match) => match[1] ?? "")
  ].filter((uri) => !playlist.includes(`PRELOAD-HINT:TYPE=PART,URI="${uri}"`))

const sequenceOf = (playlist: string): number => Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1])

// One relayed channel, two instances on one PostgreSQL (DESIGN.md, "Real channels"): one instance
// runs the feed, the other takes the channel from it, so the upstream sees each object once; when
// the owner dies, the other takes the feed over by itself.
describe.skipIf(postgres === undefined)("a relayed channel on two instances", () => {
  let database: TestDatabase
  let upstream: Upstream
  let broadcast: TsBroadcast | undefined
  let dataDirs: Array<string> = []
  let servers: Array<RunningServer> = []
  let channel = ""
  let ingestPorts: Array<{ readonly tcp: number; readonly udp: number }> = []
  const encoders: Array<Encoder> = []

  beforeAll(async () => {
    upstream = await startUpstream()
    database = await postgres!.create({ migrate: false })
    dataDirs = [await mkdtemp(join(tmpdir(), "streamhub-relay-a-")), await mkdtemp(join(tmpdir(), "streamhub-relay-b-"))]
    ingestPorts = await Promise.all(dataDirs.map(() => freePorts()))
    servers = await Promise.all(
      dataDirs.map((dir, i) =>
        startServer({
          DATA_DIR: dir,
          DATABASE_URL: database.databaseUrl!,
          RTMP_PORT: String(ingestPorts[i]?.tcp),
          SRT_PORT: String(ingestPorts[i]?.udp),
          INGEST_PUBLIC_HOST: "127.0.0.1"
        })
      )
    )
    const [a] = servers
    const added = await admin(a!, "stream:add", "--title", "Relayed", "--relay", `${upstream.url}/live/demo1/ll.m3u8`)
    channel = /\/live\/(relay\d+)\//.exec(added)?.[1] ?? ""
    expect(channel, added).not.toBe("")
    await admin(a!, "user:create", "--email", "two-viewer@example.com", "--password", PASSWORD)
  })

  afterAll(async () => {
    await Promise.all(encoders.map((encoder) => encoder.stop()))
    await Promise.all(servers.map((server) => server.stop()))
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true })
    await database?.dispose()
    await upstream?.stop()
    await broadcast?.stop()
  })

  /** A viewer's low-latency source of a channel (the relayed one unless named; the TV player's when asked), signed by `server`. */
  const sourceOn = async (server: RunningServer, title = "Relayed", player: "src" | "src_sldp" = "src_sldp"): Promise<string> => {
    const login = await fetch(`${server.url}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "two-viewer@example.com", password: PASSWORD, isMobile: false })
    })
    const { token } = (await login.json()) as { token: string }
    const streams = (await (await fetch(`${server.url}/api/streams/all`, { headers: { token } })).json()) as {
      data: Array<{ title: string; src: string; src_sldp: string }>
    }
    return streams.data.find((stream) => stream.title === title)?.[player] ?? ""
  }
  const owner = async (): Promise<string | undefined> =>
    (await database.db.kysely.selectFrom("job_leases").select("holder").where("name", "=", `relay:${channel}`).executeTakeFirst())?.holder

  it("runs the feed on one instance; the other serves the same playlist and media from it, each fetched from the upstream once", async () => {
    const [a, b] = servers as [RunningServer, RunningServer]
    const sources = await Promise.all([sourceOn(a), sourceOn(b)])
    // viewers on both at once: the first admitted viewer's instance takes the lease
    const playlists = await Promise.all(
      [a, b, a, b].map(async (server, i) => {
        const response = await fetch(`${server.url}${sources[i % 2]}`)
        return { status: response.status, body: await response.text() }
      })
    )
    for (const playlist of playlists) expect(playlist.status, playlist.body).toBe(200)
    const holder = await owner()
    expect(servers.filter((server) => holder?.startsWith(`${server.url} `))).toHaveLength(1)

    // both instances name every object alike (an edge in front may send a viewer to either)
    const onA = await (await fetch(`${a.url}${sources[0]}`)).text()
    const onB = await (await fetch(`${b.url}${sources[1]}`)).text()
    const names = (playlist: string) => new Set(mediaUris(playlist).map((uri) => uri.split("?")[0]))
    const shared = [...names(onA)].filter((name) => names(onB).has(name))
    expect(shared.length).toBeGreaterThan(3)

    // the newest objects, asked of both instances by many viewers at once
    const wanted = shared.slice(-3)
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => i).flatMap((i) =>
        wanted.map(async (path) => {
          const server = i % 2 === 0 ? a : b
          const grant = new URL(sources[i % 2] ?? "", "http://x").searchParams.get("grant") ?? ""
          const response = await fetch(`${server.url}${path}?grant=${encodeURIComponent(grant)}`)
          return { status: response.status, bytes: (await response.arrayBuffer()).byteLength }
        })
      )
    )
    for (const answer of answers) expect(answer.status).toBe(200)
    const fetched = [...upstream.counts].filter(([path]) => /\/live\/demo1\/(seg|part)\//.test(path))
    expect(fetched.length).toBeGreaterThan(0)
    expect(
      fetched.filter(([, n]) => n !== 1),
      "upstream requests per object"
    ).toEqual([])

    // the other instance's request without our signature is refused
    const internal = await fetch(`${b.url}/internal/relay/${channel}/index.m3u8`)
    expect(internal.status).toBe(403)

    // the owner counts the other's viewers too
    await expect
      .poll(async () => {
        const row = await database.db.kysely
          .selectFrom("feed_health")
          .select(["state", "figures"])
          .where("channel", "=", channel)
          .executeTakeFirst()
        return row === undefined ? undefined : { state: row.state, viewers: (JSON.parse(row.figures) as { viewers: number }).viewers }
      })
      .toEqual({ state: "live", viewers: 2 })
  })

  it("serves the same time-shift window whichever instance a viewer reaches, old segments from the owner's disk", async () => {
    const holder = await owner()
    const ownerServer = servers.find((server) => holder?.startsWith(`${server.url} `))!
    const peer = servers.find((server) => server !== ownerServer)!
    const [tvOwner, tvPeer, llPeer] = await Promise.all([
      sourceOn(ownerServer, "Relayed", "src"),
      sourceOn(peer, "Relayed", "src"),
      sourceOn(peer, "Relayed")
    ])
    const text = async (url: string) => (await fetch(url)).text()
    const bySequence = (playlist: string): Map<number, string> => {
      const skipped = Number(/#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)/.exec(playlist)?.[1] ?? 0)
      const uris = playlist.split("\n").filter((line) => line.startsWith("/live/"))
      return new Map(uris.map((uri, i) => [sequenceOf(playlist) + skipped + i, uri.split("?")[0] ?? ""]))
    }
    // the window outgrows the live playlist on the owner, and the other instance lists it too
    await expect
      .poll(
        async () => {
          const [onOwner, onPeer, live] = await Promise.all([
            text(`${ownerServer.url}${tvOwner}`),
            text(`${peer.url}${tvPeer}`),
            text(`${peer.url}${llPeer}`)
          ])
          return sequenceOf(onPeer) === sequenceOf(onOwner) && sequenceOf(live) - sequenceOf(onPeer) >= 4
        },
        { timeout: 60_000, interval: 1000 }
      )
      .toBe(true)
    const [onOwner, onPeer, live] = await Promise.all([
      text(`${ownerServer.url}${tvOwner}`),
      text(`${peer.url}${tvPeer}`),
      text(`${peer.url}${llPeer}`)
    ])
    expect(onPeer).toMatch(/CAN-SKIP-UNTIL=/)
    expect(live).not.toMatch(/CAN-SKIP-UNTIL=/)
    const [owned, peered] = [bySequence(onOwner), bySequence(onPeer)]
    const common = [...peered.keys()].filter((sequence) => owned.has(sequence))
    expect(common.length).toBeGreaterThan(8)
    for (const sequence of common) expect(peered.get(sequence)).toBe(owned.get(sequence))
    // the oldest segment of the window, long gone from the live playlists: served by the other instance as by the owner
    const oldest = peered.get(sequenceOf(onPeer)) ?? ""
    expect(mediaUris(live).map((uri) => uri.split("?")[0])).not.toContain(oldest)
    const grantOf = (src: string) => encodeURIComponent(new URL(src, "http://x").searchParams.get("grant") ?? "")
    const [fromPeer, fromOwner] = await Promise.all([
      fetch(`${peer.url}${oldest}?grant=${grantOf(tvPeer)}`),
      fetch(`${ownerServer.url}${oldest}?grant=${grantOf(tvOwner)}`)
    ])
    expect([fromPeer.status, fromOwner.status]).toEqual([200, 200])
    expect(Buffer.from(await fromPeer.arrayBuffer()).equals(Buffer.from(await fromOwner.arrayBuffer()))).toBe(true)
    // and a delta update at the other instance
    const delta = await text(`${peer.url}${tvPeer}&_HLS_skip=YES`)
    expect(Number(/#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)/.exec(delta)?.[1])).toBeGreaterThan(0)
    for (const [sequence, uri] of bySequence(delta)) if (peered.has(sequence)) expect(uri).toBe(peered.get(sequence))
  })

  it.skipIf(!hasFfmpeg())("pulls a channel through one ffmpeg whichever instance its viewers reach", async () => {
    broadcast = await startTsBroadcast()
    const [a, b] = servers as [RunningServer, RunningServer]
    await admin(a, "stream:add", "--title", "Pulled", "--pull", broadcast.url)
    // ffprobe, asked once at stream:add
    expect(broadcast.connections()).toBe(1)
    const sources = await Promise.all([sourceOn(a, "Pulled"), sourceOn(b, "Pulled")])
    await expect
      .poll(async () => {
        const answers = await Promise.all([fetch(`${a.url}${sources[0]}`), fetch(`${b.url}${sources[1]}`)])
        return answers.map((answer) => answer.status)
      })
      .toEqual([200, 200])
    const onA = mediaUris(await (await fetch(`${a.url}${sources[0]}`)).text())
    const onB = mediaUris(await (await fetch(`${b.url}${sources[1]}`)).text())
    const shared = onA.map((uri) => uri.split("?")[0]).filter((path) => onB.some((uri) => uri.startsWith(`${path}?`)))
    expect(shared.length).toBeGreaterThan(2)
    const part = await fetch(`${b.url}${onB.at(-1)}`)
    expect(part.status).toBe(200)
    expect(broadcast.connections()).toBe(2)
  })

  it.skipIf(!hasFfmpeg())("serves an ingest channel from the instance its encoder pushes to, at every instance", async () => {
    const [a, b] = servers as [RunningServer, RunningServer]
    const added = await admin(a, "stream:add", "--title", "Pushed", "--ingest")
    const key = /\/live\/([A-Za-z0-9_-]{24})$/m.exec(added)?.[1] ?? ""
    const pushed = /\/live\/(ingest\d+)\//.exec(added)?.[1] ?? ""
    // the encoder pushes to the second instance (each opens its ports once it sees the channel)
    const pushTo = async (port: number): Promise<Encoder> => {
      for (;;) {
        const encoder = startEncoder(`rtmp://127.0.0.1:${port}/live/${key}`)
        encoders.push(encoder)
        const ended = await Promise.race([encoder.exited, new Promise((resolve) => setTimeout(() => resolve("running"), 2000))])
        if (ended === "running") return encoder
        if (!/Connection refused/.test(encoder.stderr())) throw new Error(encoder.stderr())
      }
    }
    await pushTo(ingestPorts[1]!.tcp)
    const sources = await Promise.all([sourceOn(a, "Pushed"), sourceOn(b, "Pushed")])
    await expect
      .poll(async () => {
        const answers = await Promise.all([fetch(`${a.url}${sources[0]}`), fetch(`${b.url}${sources[1]}`)])
        return answers.map((answer) => answer.status)
      })
      .toEqual([200, 200])
    const lease = await database.db.kysely
      .selectFrom("job_leases")
      .select("holder")
      .where("name", "=", `relay:${pushed}`)
      .executeTakeFirst()
    expect(lease?.holder.startsWith(`${b.url} `)).toBe(true)
    // the same names at both: the first instance takes the channel from the second
    await expect
      .poll(async () => {
        const onA = mediaUris(await (await fetch(`${a.url}${sources[0]}`)).text())
        const onB = mediaUris(await (await fetch(`${b.url}${sources[1]}`)).text())
        return onA.map((uri) => uri.split("?")[0]).filter((path) => onB.some((uri) => uri.startsWith(`${path}?`))).length
      })
      .toBeGreaterThan(2)
    const onA = mediaUris(await (await fetch(`${a.url}${sources[0]}`)).text())
    expect((await fetch(`${a.url}${onA.at(-1)}`)).status).toBe(200)
    // a second encoder with the key, at the other instance, is refused while the first is connected
    const second = startEncoder(`rtmp://127.0.0.1:${ingestPorts[0]!.tcp}/live/${key}`)
    encoders.push(second)
    expect(await second.exited).not.toBe(0)
    expect(second.stderr()).toMatch(/already has a publisher \(at another instance\)/)
  })

  it("moves the feed to the other instance when its owner dies, numbering on without going back", async () => {
    const holder = await owner()
    const dead = servers.find((server) => holder?.startsWith(`${server.url} `))!
    const alive = servers.find((server) => server !== dead)!
    const source = await sourceOn(alive)
    const before = sequenceOf(await (await fetch(`${alive.url}${source}`)).text())
    await dead.crash()
    // the viewer keeps asking, as a player does; within the lease's life the other instance runs the feed
    await expect
      .poll(
        async () => {
          const response = await fetch(`${alive.url}${source}`)
          return response.status === 200 && (await owner())?.startsWith(`${alive.url} `) === true
        },
        { interval: 500 }
      )
      .toBe(true)
    const after = await (await fetch(`${alive.url}${source}`)).text()
    expect(sequenceOf(after)).toBeGreaterThanOrEqual(before)
    const segment = mediaUris(after).at(-1) ?? ""
    const media = await fetch(`${alive.url}${segment}`)
    expect(media.status).toBe(200)
  })
})
