/**
 * The server under load, each figure against a baseline measured in the same run, rounds
 * interleaved (ours, baseline, ours, ...) and medians taken:
 * - cold start to the first answer, against bare Fastify;
 * - authenticated `GET /api/streams/all` at 50 and 100 connections, against bare Fastify with its
 *   JSON and against our own plugins (headers, compression, errors, parsers, rate limit) with it;
 * - player heartbeats at 30,000 a minute, against an authenticated GET at the same rate, with the
 *   server's longest event-loop stall;
 * - a static file and an API GET while 4 sign-ins run at once, against the same when idle;
 * - memory: idle, the most under any of the loads above, and what a sign-in burst leaves behind;
 * - the staff connections view with 2,000 live viewers, against none;
 * - 2,000 players on their real schedule (the live playlist every 2 s through the stream-grant
 *   check, a ping a minute, a health beacon every 10 s): requests, errors, p50/p99.
 * Loads given as a rate go out at an even pace (pacedLoad.ts); the GETs at 100 connections and the
 * sign-ins keep their connections busy (autocannon). Traffic goes to 127.0.0.1 only; every load is
 * bounded by its duration.
 */
import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { hashPassword } from "../../src/server/account/passwords.ts"
import { createSession, hashToken } from "../../src/server/account/sessions.ts"
import { insertUser } from "../../src/server/account/usersRepo.ts"
import { playerTokenOf } from "../../src/server/connections/playerTokens.ts"
import { openDatabase } from "../../src/server/db/database.ts"
import { BARE_SERVER, type BenchServer, OUR_SERVER, scratchDatabase, startBenchServer } from "./benchServer.ts"
import { type Load, type PacedRequest, pacedLoad } from "./pacedLoad.ts"
import { median, row } from "./stats.ts"

export interface ServerBenchOptions {
  /** PostgreSQL URL, or undefined for SQLite */
  readonly postgresUrl?: string | undefined
  readonly rounds: number
  /** seconds of each heartbeat round */
  readonly heartbeatSeconds: number
  /** heartbeats a minute */
  readonly heartbeatRate: number
  readonly apiSeconds: number
}

const PASSWORD = "bench password 1"
const PLAYERS = 2000
const UNLIMITED = { API_LIMIT_PER_MINUTE: "9999999", SIGN_IN_LIMIT_PER_MINUTE: "9999999" }

const toLoad = (result: autocannon.Result): Load => ({
  rps: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts + result.non2xx,
  requests: result.requests.total
})

const fixed = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : "–")
const ratio = (ours: number, base: number): string => fixed(ours / base, 2)

interface Fixture {
  readonly env: Record<string, string>
  readonly tokens: ReadonlyArray<string>
  readonly staffToken: string
  readonly email: string
  dispose(): Promise<void>
}

/** A migrated, seeded database with 2,000 signed-in players (an account each) and a staff account. */
export async function prepareFixture(postgresUrl: string | undefined): Promise<Fixture> {
  const scratch = await scratchDatabase(postgresUrl)
  const { dataDir, databaseUrl } = scratch
  const env: Record<string, string> = { ...scratch.env, ...UNLIMITED }
  // the first start migrates and seeds; timed starts come after it
  const first = await startBenchServer(OUR_SERVER, env)
  await first.stop()
  const db = await openDatabase({ dataDir, databaseUrl })
  const passwordHash = await hashPassword(PASSWORD)
  const now = Date.now()
  const tokens: Array<string> = []
  try {
    const viewer = await insertUser(db.kysely, {
      username: "bench",
      email: "bench@example.com",
      password_hash: passwordHash,
      invite_token: "bench",
      email_verified_at: new Date(now).toISOString()
    })
    const staff = await insertUser(db.kysely, {
      username: "benchstaff",
      email: "benchstaff@example.com",
      password_hash: passwordHash,
      invite_token: "benchstaff",
      is_staff: true
    })
    // an account each, as viewers are: the telemetry budgets are per account as well as per session
    const players = await Promise.all(
      Array.from({ length: PLAYERS }, (_, n) =>
        insertUser(db.kysely, {
          username: `player${n}`,
          email: `player${n}@example.com`,
          password_hash: passwordHash,
          invite_token: `player${n}`
        })
      )
    )
    for (let n = 0; n < PLAYERS; n += 1) {
      const user = players[n % players.length] ?? viewer
      tokens.push(await createSession(db.kysely, user.id, { isMobile: false, userAgent: "bench", ip: "127.0.0.1" }, now))
    }
    const staffToken = await createSession(db.kysely, staff.id, { isMobile: false, userAgent: "bench", ip: "127.0.0.1" }, now)
    return {
      env,
      tokens,
      staffToken,
      email: "bench@example.com",
      dispose: () => scratch.dispose()
    }
  } finally {
    await db.close()
  }
}

const pingBody = (n: number): string =>
  JSON.stringify({
    session_id: `bench-${n}`,
    sitegroup_id: "streamhub",
    media_id: "1",
    site_id: "web",
    player_id: "tv",
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
  })

/** Heartbeats from every player in turn, at `perMinute`, for `seconds`. */
export function heartbeats(server: BenchServer, tokens: ReadonlyArray<string>, perMinute: number, seconds: number): Promise<Load> {
  return pacedLoad({
    url: server.url,
    perSecond: perMinute / 60,
    seconds,
    connections: 100,
    request: (n) => ({
      method: "POST",
      path: "/api/analytics/live/streamhub/ping",
      headers: { "content-type": "application/json", token: tokens[n % tokens.length] ?? "" },
      body: pingBody(n)
    })
  })
}

/** Each player's signed playlist address for the first stream, as its own session's list gives it. */
async function signedSources(
  server: BenchServer,
  tokens: ReadonlyArray<string>
): Promise<{ readonly sources: Array<string>; readonly streamId: string }> {
  const sources: Array<string> = new Array(tokens.length).fill("")
  let streamId = ""
  for (let start = 0; start < tokens.length; start += 25) {
    await Promise.all(
      tokens.slice(start, start + 25).map(async (token, offset) => {
        const answer = (await (await fetch(`${server.url}/api/streams/all`, { headers: { token } })).json()) as {
          data: Array<{ id: number; src: string }>
        }
        const first = answer.data[0]
        sources[start + offset] = first?.src ?? ""
        streamId = String(first?.id ?? "")
      })
    )
  }
  return { sources, streamId }
}

const healthBeacon = (n: number, streamId: string, token: string): string =>
  JSON.stringify({
    token,
    events: Array.from({ length: 5 }, (_, k) => ({
      session_id: `bench-${n}`,
      device_id: `device-${n}`,
      version: "3.4.5",
      source: "hls",
      page_url: "/player?default=0",
      event: k === 0 ? "playing" : "timeupdate",
      current_time: k,
      client_time: Date.now() + k,
      adjusted_time: Date.now() + k,
      ids: { media_id: streamId, site_id: "web", sitegroup_id: "streamhub", player_id: "tv" },
      plugins: ["analytics", "health"]
    }))
  })

/**
 * 2,000 players watching on the TV player's schedule for `seconds`: each asks for its live
 * playlist every 2 s (the demo's target duration), with its own session's grant; pings once a
 * minute and sends a health beacon every 10 s. Playlists and telemetry are measured apart.
 */
export async function livePlayers(
  server: BenchServer,
  tokens: ReadonlyArray<string>,
  seconds: number,
  /** runs between the players' starts and the timed minute */
  beforeWatching: () => Promise<unknown> = async () => undefined
): Promise<{ readonly startMs: number; readonly playlists: Load; readonly telemetry: Load }> {
  const { sources, streamId } = await signedSources(server, tokens)
  // the players are watching already: each has started (opened its connection) before the timed minute
  const started = performance.now()
  for (let start = 0; start < sources.length; start += 50) {
    await Promise.all(
      sources.slice(start, start + 50).map(async (source) => {
        const response = await fetch(`${server.url}${source}`)
        if (!response.ok) throw new Error(`a player could not start: ${response.status} ${await response.text()}`)
        await response.arrayBuffer()
      })
    )
  }
  const startMs = performance.now() - started
  await beforeWatching()
  const [playlists, telemetry] = await Promise.all([
    pacedLoad({
      url: server.url,
      connections: 100,
      seconds,
      perSecond: tokens.length / 2,
      request: (n) => ({ method: "GET", path: sources[n % sources.length] ?? "/" })
    }),
    pacedLoad({
      url: server.url,
      connections: 50,
      seconds,
      // a ping a minute and six beacons: one request in seven is a ping
      perSecond: (tokens.length * 7) / 60,
      request: (n): PacedRequest => {
        const player = Math.floor(n / 7) % tokens.length
        return n % 7 === 0
          ? {
              method: "POST",
              path: "/api/analytics/live/streamhub/ping",
              headers: { "content-type": "application/json", token: tokens[player] ?? "" },
              body: pingBody(player)
            }
          : {
              method: "POST",
              path: "/api/health-events",
              headers: { "content-type": "text/plain;charset=UTF-8" },
              body: healthBeacon(player, streamId, tokens[player] ?? "")
            }
      }
    })
  ])
  return { startMs, playlists, telemetry }
}

/** As many authenticated GETs as `connections` keep asking for, each waiting for the last answer. */
export function authenticatedGets(
  server: BenchServer,
  token: string,
  options: { seconds: number; connections: number; path?: string }
): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}${options.path ?? "/api/streams/all"}`,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    headers: { token, "accept-encoding": "gzip, br" }
  })
}

/** Authenticated GETs at a steady rate (see pacedLoad.ts). */
export function pacedGets(
  server: BenchServer,
  token: string,
  options: { seconds: number; connections: number; perMinute: number; path?: string }
): Promise<Load> {
  return pacedLoad({
    url: server.url,
    perSecond: options.perMinute / 60,
    seconds: options.seconds,
    connections: options.connections,
    request: () => ({ method: "GET", path: options.path ?? "/api/streams/all", headers: { token, "accept-encoding": "gzip, br" } })
  })
}

/** What `benchApi` compares: our endpoint, our plugins with the fixed JSON, and bare Fastify with it. */
const API_TARGETS = ["ours", "plugins", "bare"] as const

/**
 * Authenticated `GET /api/streams/all` at 50 and 100 connections, each connection waiting for its
 * last answer: our server, our plugins answering the fixed JSON (bareApi.mjs with BARE_PLUGINS) and
 * bare Fastify answering it, in interleaved rounds, medians printed with their ratio to bare.
 * `sample` runs every second under load, e.g. to read the process's memory.
 */
export async function benchApi(
  ours: BenchServer,
  plugins: BenchServer,
  bare: BenchServer,
  token: string,
  options: Pick<ServerBenchOptions, "rounds" | "apiSeconds">,
  sample: (target: BenchServer) => unknown = () => undefined
): Promise<void> {
  const targets = { ours, plugins, bare }
  const runs = [50, 100].map((connections) => ({
    connections,
    loads: { ours: [] as Array<Load>, plugins: [] as Array<Load>, bare: [] as Array<Load> },
    cpu: { ours: [] as Array<number>, plugins: [] as Array<number>, bare: [] as Array<number> }
  }))
  for (const name of API_TARGETS) await authenticatedGets(targets[name], token, { seconds: 2, connections: 10 })
  for (let round = 0; round < options.rounds; round += 1) {
    for (const run of runs) {
      for (const name of API_TARGETS) {
        const target = targets[name]
        const before = await target.probe()
        const sampler = setInterval(() => void sample(target), 1000)
        const load = toLoad(await authenticatedGets(target, token, { seconds: options.apiSeconds, connections: run.connections }))
        clearInterval(sampler)
        const after = await target.probe()
        run.loads[name].push(load)
        run.cpu[name].push(((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, load.requests))
      }
    }
    process.stdout.write(".")
  }
  process.stdout.write("\n")
  const med = (loads: ReadonlyArray<Load>, key: keyof Load) => median(loads.map((load) => load[key]))
  for (const run of runs) {
    const rps = (name: (typeof API_TARGETS)[number]) => med(run.loads[name], "rps")
    console.log(row(`GET /api/streams/all, ${run.connections} conn.`, ["ours", "plugins", "bare"]))
    console.log(row("  requests/s", [fixed(rps("ours")), fixed(rps("plugins")), fixed(rps("bare"))]))
    console.log(row("  x bare (goal: ours >= 0.5)", [ratio(rps("ours"), rps("bare")), ratio(rps("plugins"), rps("bare")), "1.00"]))
    console.log(
      row(
        "  p99 ms (goal: ours <= 20)",
        API_TARGETS.map((name) => fixed(med(run.loads[name], "p99")))
      )
    )
    console.log(
      row(
        "  CPU µs per request",
        API_TARGETS.map((name) => fixed(median(run.cpu[name])))
      )
    )
    console.log(
      row(
        "  errors",
        API_TARGETS.map((name) => med(run.loads[name], "errors"))
      )
    )
  }
}

export async function benchServer(options: ServerBenchOptions): Promise<void> {
  const name = options.postgresUrl === undefined ? "SQLite" : "PostgreSQL"
  console.log(`\nServer under load on ${name} (${options.rounds} rounds, interleaved, medians)`)
  const fixture = await prepareFixture(options.postgresUrl)
  const memory = { idle: [] as Array<number>, bareIdle: [] as Array<number>, peaks: new Map<string, number>(), kept: [] as Array<number> }
  try {
    // cold start, and idle memory once started
    const starts = { ours: [] as Array<number>, bare: [] as Array<number> }
    let streamsJson = ""
    for (let round = 0; round < Math.max(options.rounds, 5); round += 1) {
      const ours = await startBenchServer(OUR_SERVER, fixture.env)
      starts.ours.push(ours.startMs)
      if (streamsJson === "") {
        streamsJson = await (await fetch(`${ours.url}/api/streams/all`, { headers: { token: fixture.staffToken } })).text()
        writeFileSync(join(fixture.env.DATA_DIR ?? tmpdir(), "bare.json"), streamsJson)
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
      memory.idle.push((await ours.probe()).rssMb)
      await ours.stop()
      const bare = await startBenchServer(BARE_SERVER, { BARE_JSON: join(fixture.env.DATA_DIR ?? tmpdir(), "bare.json") })
      starts.bare.push(bare.startMs)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      memory.bareIdle.push((await bare.probe()).rssMb)
      await bare.stop()
    }
    console.log(row("cold start to first answer (ms)", ["ours", "bare", "ratio"]))
    console.log(
      row("  median (goal <= 500)", [
        fixed(median(starts.ours)),
        fixed(median(starts.bare)),
        ratio(median(starts.ours), median(starts.bare))
      ])
    )

    const server = await startBenchServer(OUR_SERVER, fixture.env)
    const bare = await startBenchServer(BARE_SERVER, { BARE_JSON: join(fixture.env.DATA_DIR ?? tmpdir(), "bare.json") })
    const plugins = await startBenchServer(BARE_SERVER, {
      BARE_JSON: join(fixture.env.DATA_DIR ?? tmpdir(), "bare.json"),
      BARE_PLUGINS: "1"
    })
    const peak = async (target: BenchServer, load: string) => {
      memory.peaks.set(load, Math.max(memory.peaks.get(load) ?? 0, (await target.probe({ reset: false })).rssMb))
    }
    try {
      // authenticated GET against bare Fastify, and against our plugins answering the same fixed JSON
      await benchApi(server, plugins, bare, fixture.staffToken, options, (target) =>
        target === server ? peak(server, "API GETs") : undefined
      )

      // heartbeats against an authenticated GET at the same rate
      const med = (loads: ReadonlyArray<Load>, key: keyof Load) => median(loads.map((load) => load[key]))
      const beats = { ours: [] as Array<Load>, gets: [] as Array<Load>, stall: [] as Array<number>, getStall: [] as Array<number> }
      for (let round = 0; round < options.rounds; round += 1) {
        await server.probe()
        const sampler = setInterval(() => void peak(server, "heartbeats"), 1000)
        beats.ours.push(await heartbeats(server, fixture.tokens, options.heartbeatRate, options.heartbeatSeconds))
        beats.stall.push((await server.probe()).loopMaxMs)
        beats.gets.push(
          await pacedGets(server, fixture.tokens[0] ?? "", {
            seconds: options.heartbeatSeconds,
            connections: 100,
            perMinute: options.heartbeatRate
          })
        )
        beats.getStall.push((await server.probe()).loopMaxMs)
        clearInterval(sampler)
        process.stdout.write(".")
      }
      process.stdout.write("\n")
      console.log(row(`heartbeats ${options.heartbeatRate}/min, ${options.heartbeatSeconds} s`, ["pings", "GET", "ratio"]))
      console.log(
        row("  p50 ms", [
          fixed(med(beats.ours, "p50")),
          fixed(med(beats.gets, "p50")),
          ratio(med(beats.ours, "p50"), med(beats.gets, "p50"))
        ])
      )
      console.log(
        row("  p99 ms (goal <= 50)", [
          fixed(med(beats.ours, "p99")),
          fixed(med(beats.gets, "p99")),
          ratio(med(beats.ours, "p99"), med(beats.gets, "p99"))
        ])
      )
      console.log(row("  longest loop stall ms (<= 50)", [fixed(Math.max(...beats.stall)), fixed(Math.max(...beats.getStall)), ""]))
      console.log(
        row("  errors, all rounds (goal 0)", [
          beats.ours.reduce((s, l) => s + l.errors, 0),
          beats.gets.reduce((s, l) => s + l.errors, 0),
          ""
        ])
      )
      console.log(
        row("  requests, all rounds", [beats.ours.reduce((s, l) => s + l.requests, 0), beats.gets.reduce((s, l) => s + l.requests, 0), ""])
      )

      // 2,000 players on their real schedule
      const sampler = setInterval(() => void peak(server, "2,000 live players"), 1000)
      const live = await livePlayers(server, fixture.tokens, options.heartbeatSeconds, () => server.probe())
      clearInterval(sampler)
      const liveStall = (await server.probe()).loopMaxMs
      const { playlists, telemetry } = live
      console.log(row(`2,000 live players, ${options.heartbeatSeconds} s`, ["playlists", "pings+health", ""]))
      console.log(row("  2,000 starts beforehand, s", [fixed(live.startMs / 1000, 1), "", ""]))
      console.log(row("  requests", [playlists.requests, telemetry.requests, ""]))
      console.log(
        row("  a minute", [
          fixed((playlists.requests * 60) / options.heartbeatSeconds),
          fixed((telemetry.requests * 60) / options.heartbeatSeconds),
          ""
        ])
      )
      console.log(row("  p50 ms", [fixed(playlists.p50), fixed(telemetry.p50), ""]))
      console.log(row("  p99 ms (goal < 50)", [fixed(playlists.p99), fixed(telemetry.p99), ""]))
      console.log(row("  errors (goal 0)", [playlists.errors, telemetry.errors, ""]))
      console.log(row("  longest loop stall ms", [fixed(liveStall), "", ""]))

      // other requests while 4 sign-ins run at once
      const asset = await firstAsset(server.url)
      const others = {
        staticIdle: [] as Array<number>,
        staticBurst: [] as Array<number>,
        apiIdle: [] as Array<number>,
        apiBurst: [] as Array<number>,
        signInsPerSecond: [] as Array<number>,
        signInP99: [] as Array<number>
      }
      for (let round = 0; round < options.rounds; round += 1) {
        const idle = await Promise.all([
          pacedGets(server, fixture.staffToken, { seconds: 5, connections: 1, perMinute: 1200, path: asset }),
          pacedGets(server, fixture.staffToken, { seconds: 5, connections: 1, perMinute: 1200 })
        ])
        others.staticIdle.push(idle[0].p99)
        others.apiIdle.push(idle[1].p99)
        const before = (await server.probe()).rssMb
        const sampler = setInterval(() => void peak(server, "sign-ins"), 500)
        const burst = await Promise.all([
          signIns(server, fixture.email, 5),
          pacedGets(server, fixture.staffToken, { seconds: 5, connections: 1, perMinute: 1200, path: asset }),
          pacedGets(server, fixture.staffToken, { seconds: 5, connections: 1, perMinute: 1200 })
        ])
        clearInterval(sampler)
        await peak(server, "sign-ins")
        others.signInsPerSecond.push(burst[0].requests.total / 5)
        others.signInP99.push(burst[0].latency.p99)
        others.staticBurst.push(burst[1].p99)
        others.apiBurst.push(burst[2].p99)
        await new Promise((resolve) => setTimeout(resolve, 3000))
        memory.kept.push((await server.probe()).rssMb - before)
        process.stdout.write(`.${burst[0].requests.total} sign-ins `)
      }
      process.stdout.write("\n")
      console.log(row("p99 during 4 concurrent sign-ins", ["idle", "sign-ins", "ratio"]))
      console.log(
        row("  static file ms (goal <= 2x)", [
          fixed(median(others.staticIdle)),
          fixed(median(others.staticBurst)),
          ratio(median(others.staticBurst), median(others.staticIdle))
        ])
      )
      console.log(
        row("  API GET ms (goal <= 2x)", [
          fixed(median(others.apiIdle)),
          fixed(median(others.apiBurst)),
          ratio(median(others.apiBurst), median(others.apiIdle))
        ])
      )
      console.log(
        row("  sign-ins a second; their p99 ms", [fixed(median(others.signInsPerSecond), 1), fixed(median(others.signInP99)), ""])
      )

      // the staff connections view with 2,000 live viewers
      const staffView = await benchStaffConnections(server, fixture)
      console.log(row("staff connections view", ["none", "2,000 live", "ratio"]))
      console.log(
        row("  median ms (goal <= 10)", [
          fixed(staffView.emptyMs, 2),
          fixed(staffView.liveMs, 2),
          ratio(staffView.liveMs, staffView.emptyMs)
        ])
      )
      console.log(row("  answer KB (page of 50 rows)", [fixed(staffView.emptyBytes / 1000, 1), fixed(staffView.liveBytes / 1000, 1), ""]))
      console.log(row("  every row, no page: ms / KB", ["", `${fixed(staffView.allMs, 2)} / ${fixed(staffView.allBytes / 1000, 1)}`, ""]))
    } finally {
      await server.stop()
      await bare.stop()
      await plugins.stop()
    }
    console.log(row("memory, RSS MB", ["ours", "bare", "ratio"]))
    console.log(
      row("  idle (goal <= 100)", [
        fixed(median(memory.idle)),
        fixed(median(memory.bareIdle)),
        ratio(median(memory.idle), median(memory.bareIdle))
      ])
    )
    for (const [load, rss] of memory.peaks) console.log(row(`  most during ${load} (goal <= 150)`, [fixed(rss), "", ""]))
    console.log(row("  kept after a sign-in burst", [fixed(median(memory.kept)), "", ""]))
  } finally {
    await fixture.dispose()
  }
}

export async function firstAsset(url: string): Promise<string> {
  const html = await (await fetch(`${url}/login`, { headers: { accept: "text/html" } })).text()
  const match = /src="(\/assets\/[^"]+\.js)"/.exec(html)
  if (match?.[1] === undefined) throw new Error("the built page names no script; run vite build first")
  return match[1]
}

export function signIns(server: BenchServer, email: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}/api/users/login`,
    connections: 4,
    duration: seconds,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, isMobile: false })
  })
}

export async function benchStaffConnections(server: BenchServer, fixture: Fixture) {
  // the staff page asks for one page of the sessions table; `all` is SPEC's whole list
  const timeView = async (query = "?page=1") => {
    const times: Array<number> = []
    let bytes = 0
    for (let n = 0; n < 30; n += 1) {
      const started = performance.now()
      const response = await fetch(`${server.url}/api/adminreports/users${query}`, {
        headers: { token: fixture.staffToken, "accept-encoding": "gzip, br" }
      })
      const body = await response.arrayBuffer()
      times.push(performance.now() - started)
      bytes = Number(response.headers.get("content-length") ?? body.byteLength)
    }
    return { ms: median(times.slice(5)), bytes }
  }
  const db = await openDatabase({ dataDir: fixture.env.DATA_DIR ?? "", databaseUrl: fixture.env.DATABASE_URL })
  try {
    await db.kysely.deleteFrom("player_connections").execute()
    const empty = await timeView()
    const users = await db.kysely.selectFrom("users").select("id").where("email", "like", "player%").execute()
    const now = new Date().toISOString()
    const rows = fixture.tokens.map((token, n) => {
      const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
      return {
        user_id: users[n % users.length]?.id ?? 1,
        session_id: n + 1,
        token: playerTokenOf(hashToken(token)),
        stream_id: "1",
        ip,
        network: ip,
        app: n % 3 === 0 ? "lls" : "tv",
        first_seen: now,
        last_seen: now
      }
    })
    for (let n = 0; n < rows.length; n += 500)
      await db.kysely
        .insertInto("player_connections")
        .values(rows.slice(n, n + 500))
        .execute()
    const live = await timeView()
    const all = await timeView("")
    return { emptyMs: empty.ms, emptyBytes: empty.bytes, liveMs: live.ms, liveBytes: live.bytes, allMs: all.ms, allBytes: all.bytes }
  } finally {
    await db.close()
  }
}
