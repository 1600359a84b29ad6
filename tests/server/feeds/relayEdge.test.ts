import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { admin, type RunningServer, startServer } from "../../support/e2eHarness.ts"
import { type Edge, startEdge } from "../../support/nginxEdge.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"

const postgres = dialects.find((dialect) => dialect.name === "postgres")
const PASSWORD = "edge viewers password"
const VIEWERS = 4

const mediaUris = (playlist: string): Array<string> =>
  [
    ...playlist.split("\n").filter((line) => line !== "" && !line.startsWith("#")),
    ...[...playlist.matchAll(/URI="([^"]+)"/g)].map((match) => match[1] ?? "")
  ].filter((uri) => !playlist.includes(`PRELOAD-HINT:TYPE=PART,URI="${uri}"`))

// The nginx edge of deploy/nginx (Debian's nginx, started here) in front of two instances on one
// PostgreSQL: each relayed object is fetched from the instances once per edge, and every viewer's
// grant is still checked, a cached object included.
describe.skipIf(postgres === undefined)("the nginx edge in front of two instances", () => {
  let database: TestDatabase
  let upstream: Upstream
  let edge: Edge
  let dataDirs: Array<string> = []
  let servers: Array<RunningServer> = []

  beforeAll(async () => {
    upstream = await startUpstream()
    database = await postgres!.create({ migrate: false })
    dataDirs = [await mkdtemp(join(tmpdir(), "streamhub-edge-a-")), await mkdtemp(join(tmpdir(), "streamhub-edge-b-"))]
    servers = await Promise.all(
      dataDirs.map((dir) => startServer({ DATA_DIR: dir, DATABASE_URL: database.databaseUrl!, TRUST_PROXY: "loopback" }))
    )
    edge = await startEdge(servers.map((server) => server.url))
    const [a] = servers
    await admin(a!, "stream:add", "--title", "Edge relay", "--relay", `${upstream.url}/live/demo1/ll.m3u8`)
    await admin(a!, "user:create", "--email", "edge-staff@example.com", "--password", PASSWORD, "--staff")
    for (let i = 0; i < VIEWERS; i += 1) await admin(a!, "user:create", "--email", `edge-${i}@example.com`, "--password", PASSWORD)
  })

  afterAll(async () => {
    await edge?.stop()
    await Promise.all(servers.map((server) => server.stop()))
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true })
    await database?.dispose()
    await upstream?.stop()
  })

  const signIn = async (email: string): Promise<string> => {
    const login = await fetch(`${edge.url}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD, isMobile: false })
    })
    expect(login.status).toBe(200)
    return ((await login.json()) as { token: string }).token
  }
  const sourceOf = async (token: string): Promise<string> => {
    const streams = (await (await fetch(`${edge.url}/api/streams/all`, { headers: { token } })).json()) as {
      data: Array<{ title: string; src_sldp: string }>
    }
    return streams.data.find((stream) => stream.title === "Edge relay")?.src_sldp ?? ""
  }
  const grantIn = (source: string): string => new URL(source, "http://x").searchParams.get("grant") ?? ""
  let viewers: Array<{ token: string; source: string }> = []

  it("sends each segment and part to the edge once, however many viewers ask, and each is fetched from the upstream once", async () => {
    viewers = await Promise.all(
      Array.from({ length: VIEWERS }, async (_, i) => {
        const token = await signIn(`edge-${i}@example.com`)
        return { token, source: await sourceOf(token) }
      })
    )
    const playlists = await Promise.all(viewers.map(async ({ source }) => (await fetch(`${edge.url}${source}`)).text()))
    for (const playlist of playlists) expect(playlist).toMatch(/^#EXTM3U/)
    const wanted = [...new Set(mediaUris(playlists[0] ?? "").map((uri) => uri.split("?")[0] ?? ""))].slice(-4)
    expect(wanted.length).toBe(4)
    // every viewer asks for the newest objects at once, twice
    for (let round = 0; round < 2; round += 1) {
      const answers = await Promise.all(
        viewers.flatMap(({ source }) =>
          wanted.map(async (path) => {
            const response = await fetch(`${edge.url}${path}?grant=${encodeURIComponent(grantIn(source))}`)
            return {
              status: response.status,
              cache: response.headers.get("x-edge-cache"),
              bytes: (await response.arrayBuffer()).byteLength
            }
          })
        )
      )
      for (const answer of answers) expect(answer.status).toBe(200)
    }
    const logged = (await edge.requests()).filter((request) => wanted.includes(request.uri))
    expect(logged).toHaveLength(2 * VIEWERS * wanted.length)
    for (const path of wanted) {
      const misses = logged.filter((request) => request.uri === path && request.cache !== "HIT")
      expect(misses, path).toHaveLength(1)
    }
    const fetched = [...upstream.counts].filter(([path]) => /\/live\/demo1\/(seg|part)\//.test(path))
    expect(fetched.filter(([, n]) => n !== 1)).toEqual([])
  })

  it("still checks every viewer's grant for what it keeps: none, a stranger's, or one staff ended is refused", async () => {
    const playlist = await (await fetch(`${edge.url}${viewers[0]?.source}`)).text()
    const cached = mediaUris(playlist).at(-2)?.split("?")[0] ?? ""
    const good = await fetch(`${edge.url}${cached}?grant=${encodeURIComponent(grantIn(viewers[0]?.source ?? ""))}`)
    expect(good.status).toBe(200)
    expect(
      await (await fetch(`${edge.url}${cached}?grant=${encodeURIComponent(grantIn(viewers[0]?.source ?? ""))}`)).headers.get("x-edge-cache")
    ).toBe("HIT")

    const none = await fetch(`${edge.url}${cached}`)
    expect(none.status).toBe(403)
    expect(await none.json()).toMatchObject({ reason: "invalid" })
    const forged = await fetch(`${edge.url}${cached}?grant=g1.forged`)
    expect(forged.status).toBe(403)

    // staff end the last viewer's connection: that viewer's next request is refused, with the reason
    const staff = await signIn("edge-staff@example.com")
    const last = viewers[VIEWERS - 1]!
    const view = (await (await fetch(`${edge.url}/api/adminreports/users`, { headers: { token: staff } })).json()) as {
      connections: Record<string, Array<{ id?: number }>>
    }
    const connection = view.connections[`edge-${VIEWERS - 1}@example.com`]?.[0]
    expect(connection, JSON.stringify(view)).toBeDefined()
    const ended = await fetch(`${edge.url}/api/adminreports/users/end`, {
      method: "POST",
      headers: { token: staff, "content-type": "application/json" },
      body: JSON.stringify({ id: connection?.id })
    })
    expect(ended.status).toBe(200)
    await expect.poll(async () => (await fetch(`${edge.url}${cached}?grant=${encodeURIComponent(grantIn(last.source))}`)).status).toBe(410)
    // the others still watch
    expect((await fetch(`${edge.url}${cached}?grant=${encodeURIComponent(grantIn(viewers[0]?.source ?? ""))}`)).status).toBe(200)
    // and the instances' internal paths are not reachable through the edge
    expect((await fetch(`${edge.url}/internal/relay/relay1/index.m3u8`)).status).toBe(404)
  })
})
