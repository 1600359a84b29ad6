import { readdirSync, statSync } from "node:fs"
import path from "node:path"
import { M3U8Parser } from "hls.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildApp } from "../../../src/server/app.ts"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { localName } from "../../../src/server/feeds/relayPlaylist.ts"
import { packagingChildren } from "../../support/childProcesses.ts"
import { dialects } from "../../support/dbHarness.ts"
import { hasFfmpeg, startTsBroadcast, type TsBroadcast } from "../../support/ffmpegUpstream.ts"
import { startUpstream, type Upstream } from "../../support/relayUpstream.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

// the window has to outgrow the live playlist in real time: a few tens of seconds of media
const GROW_MS = 120_000

const sequenceOf = (playlist: string): number => Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1])
const segmentPaths = (playlist: string): Array<string> =>
  playlist
    .split("\n")
    .filter((line) => line.startsWith("/live/"))
    .map((line) => line.split("?")[0] ?? "")
/** Each listed segment's path by its media sequence number. */
const bySequence = (playlist: string): Map<number, string> => {
  const skipped = Number(/#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)/.exec(playlist)?.[1] ?? 0)
  return new Map(segmentPaths(playlist).map((uri, i) => [sequenceOf(playlist) + skipped + i, uri]))
}
/** The newest complete segment a playlist lists, with the grant it carries. */
const lastSegment = (playlist: string): string => playlist.split("\n").findLast((line) => line.startsWith("/live/")) ?? ""

interface Channel {
  readonly title: string
  /** the TV player's playlist and the low-latency player's, each with its grant */
  tv: string
  ll: string
}

/** Starts a test server's app again on the same database and data directory, as a restarted server would. */
const restart = async (server: TestServer): Promise<void> => {
  await server.app.close()
  server.app = await buildApp({
    config: server.config,
    db: server.db,
    now: () => server.clock,
    housekeeping: { firstAfterMs: 24 * 60 * 60 * 1000 }
  })
}

describe.skipIf(!hasFfmpeg())("the time-shift window of relayed and pulled channels", () => {
  let server: TestServer
  let upstream: Upstream
  let broadcast: TsBroadcast
  const relayed: Channel = { title: "Relayed", tv: "", ll: "" }
  const pulled: Channel = { title: "Pulled", tv: "", ll: "" }
  /** a segment of each channel while it was live: its address, and its bytes then */
  const early = new Map<Channel, { readonly uri: string; readonly bytes: Buffer }>()
  const admin = async (...argv: Array<string>) => {
    const lines: Array<string> = []
    const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db, now: () => server.clock })
    expect(code, lines.join("\n")).toBe(0)
    return lines.join("\n")
  }
  const play = (url: string) => server.app.inject({ method: "GET", url, remoteAddress: "10.90.0.1" })
  const text = async (url: string) => {
    const answer = await play(url)
    expect(answer.statusCode, answer.body).toBe(200)
    return answer.body
  }
  /** The TV player's whole playlist, its delta update and the low-latency playlist, at the same live edge. */
  const together = async (channel: Channel) => {
    for (;;) {
      const [full, delta, ll] = await Promise.all([text(channel.tv), text(`${channel.tv}&_HLS_skip=YES`), text(channel.ll)])
      const newest = (playlist: string) => Math.max(...bySequence(playlist).keys())
      if (newest(full) === newest(delta) && newest(delta) === newest(ll)) return { full, delta, ll }
    }
  }
  const sources = async (): Promise<void> => {
    const token = await server.signIn("timeshift-viewer@example.com")
    const streams = (await server.call("streams", { token })).json() as { data: Array<{ title: string; src: string; src_sldp: string }> }
    for (const channel of [relayed, pulled]) {
      const stream = streams.data.find((each) => each.title === channel.title)
      channel.tv = stream?.src ?? ""
      channel.ll = stream?.src_sldp ?? ""
    }
  }

  beforeAll(async () => {
    upstream = await startUpstream()
    broadcast = await startTsBroadcast()
    server = await startTestServer(dialects[0]!)
    await server.db.kysely.deleteFrom("streams").execute()
    await server.addUser({ email: "timeshift-viewer@example.com" })
    await admin("stream:add", "--title", relayed.title, "--relay", `${upstream.url}/live/demo1/ll.m3u8`)
    await admin("stream:add", "--title", pulled.title, "--pull", broadcast.url)
    await sources()
  })
  afterAll(async () => {
    await server?.dispose()
    await upstream?.stop()
    await broadcast?.stop()
  })

  it(
    "lists a window longer than the live playlist to the TV player as a DVR range; the low-latency player's stays short",
    async () => {
      for (const channel of [relayed, pulled]) {
        await expect.poll(async () => (await play(channel.ll)).statusCode, { timeout: WAIT_MS }).toBe(200)
        const uri = lastSegment(await text(channel.ll))
        early.set(channel, { uri, bytes: (await play(uri)).rawPayload })
      }
      // what we relay is what the upstream sent
      const relayedEarly = early.get(relayed)!
      expect(relayedEarly.bytes.equals(await upstreamBytes(upstream, relayedEarly.uri))).toBe(true)
      for (const channel of [relayed, pulled]) {
        const { uri, bytes } = early.get(channel)!
        const path = uri.split("?")[0] ?? ""
        // the segment has left the live playlist, and the window is longer than it by a few more
        await expect
          .poll(
            async () => {
              const [tv, ll] = await Promise.all([text(channel.tv), text(channel.ll)])
              return !segmentPaths(ll).includes(path) && segmentPaths(tv).length - segmentPaths(ll).length >= 6
            },
            { timeout: GROW_MS, interval: 1000 }
          )
          .toBe(true)
        const { full: tv, ll } = await together(channel)
        expect(tv).toMatch(/^#EXT-X-VERSION:9$/m)
        expect(tv).toMatch(/^#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,.*CAN-SKIP-UNTIL=12\.0$/m)
        expect(ll).not.toMatch(/CAN-SKIP-UNTIL/)
        expect(sequenceOf(tv)).toBeLessThan(sequenceOf(ll))
        // the window's segments: whole ones, each with its program date time, the same names as when live
        const liveFirst = segmentPaths(ll)[0] ?? ""
        const older = tv.slice(0, tv.indexOf(`${liveFirst}?`))
        expect(older).not.toMatch(/#EXT-X-PART:/)
        expect(older.match(/#EXT-X-PROGRAM-DATE-TIME:/g)?.length).toBe(older.match(/#EXTINF:/g)?.length)
        expect(segmentPaths(tv)).toContain(path)
        // old segments play: the same bytes as when they were live
        const old = await play(`${path}?grant=${new URL(channel.tv, "http://x").searchParams.get("grant")}`)
        expect(old.statusCode).toBe(200)
        expect(old.rawPayload.equals(bytes)).toBe(true)
        // not without the grant; a segment the window does not hold is unknown
        expect((await play(path)).statusCode).toBe(403)
        const grant = new URL(channel.tv, "http://x").searchParams.get("grant")
        expect((await play(`${path.replace(/\/m\/[^/]+$/, "/m/nothing.m4s")}?grant=${grant}`)).statusCode).toBe(404)
      }
    },
    GROW_MS + 60_000
  )

  it("answers _HLS_skip=YES with a delta update: the window's older segments replaced by EXT-X-SKIP, numbered to merge", async () => {
    for (const channel of [relayed, pulled]) {
      const { full, delta, ll } = await together(channel)
      const skipped = Number(/^#EXT-X-SKIP:SKIPPED-SEGMENTS=(\d+)$/m.exec(delta)?.[1])
      expect(sequenceOf(delta)).toBe(sequenceOf(full))
      // as hls.js reads it
      const details = M3U8Parser.parseLevelPlaylist(delta, `http://tv.example${channel.tv}`, 0, "main" as never, 0, null)
      expect(details.playlistParsingError).toBeNull()
      expect(details.skippedSegments).toBe(skipped)
      expect(details.canSkipUntil).toBe(12)
      expect(delta).toMatch(/^#EXT-X-DISCONTINUITY-SEQUENCE:/m)
      // a player puts its copy's skipped segments back in front: every number names the segment the whole playlist gave it
      const whole = bySequence(full)
      const merged = bySequence(delta)
      expect([...merged].length).toBeGreaterThan(3)
      for (const [sequence, uri] of merged) expect(uri).toBe(whole.get(sequence))
      expect(Math.min(...merged.keys())).toBe(sequenceOf(full) + skipped)
      expect(Math.max(...merged.keys())).toBe(Math.max(...whole.keys()))
      // skipped: the window's segments that start more than CAN-SKIP-UNTIL (12 s) before the end; the live ones never
      const durations = full
        .split("\n")
        .filter((line) => line.startsWith("#EXTINF:"))
        .map((line) => Number.parseFloat(line.slice(8)))
      const end = durations.reduce((sum, duration) => sum + duration, 0)
      let start = 0
      let older = 0
      for (const duration of durations) {
        if (start >= end - 12) break
        older += 1
        start += duration
      }
      const windowSegments = sequenceOf(ll) - sequenceOf(full)
      expect(windowSegments).toBeGreaterThan(5)
      expect(skipped).toBe(Math.min(older, windowSegments))
      expect(delta.length).toBeLessThan(full.length)
    }
  })

  it(
    "keeps the window when the feeds stop after their last viewer: old segments still play, the window goes on after a discontinuity",
    async () => {
      const before = new Map([relayed, pulled].map((channel) => [channel, ""]))
      for (const channel of [relayed, pulled]) before.set(channel, await text(channel.tv))
      server.clock += 61_000
      await expect.poll(() => packagingChildren().length, { timeout: WAIT_MS }).toBe(0)
      await expect.poll(async () => (await admin("stream:list")).match(/\srelay\s+idle/g)?.length, { timeout: WAIT_MS }).toBe(1)
      // longer than the upstream's playlist lists: a relay cannot fill all of the gap from it
      await new Promise((resolve) => setTimeout(resolve, 14_000))
      for (const channel of [relayed, pulled]) {
        const { uri, bytes } = early.get(channel)!
        // the feed is stopped and its memory emptied: these come from the disk
        const old = await play(uri)
        expect(old.statusCode).toBe(200)
        expect(old.rawPayload.equals(bytes)).toBe(true)
        await expect.poll(async () => (await play(channel.tv)).statusCode, { timeout: WAIT_MS }).toBe(200)
        await expect
          .poll(async () => (await text(channel.tv)).includes("#EXT-X-DISCONTINUITY\n"), { timeout: WAIT_MS, interval: 500 })
          .toBe(true)
        const after = await text(channel.tv)
        const earlier = bySequence(before.get(channel)!)
        const now = bySequence(after)
        // the same segments under the same numbers, then the new run numbered on from the window's last
        expect(sequenceOf(after)).toBe(sequenceOf(before.get(channel)!))
        for (const [sequence, uri] of earlier) if (now.has(sequence)) expect(now.get(sequence)).toBe(uri)
        expect(now.has(Math.max(...earlier.keys()) + 1)).toBe(true)
        // where the new run begins (after a discontinuity), the media's clock jumps over the time the feed was away
        const runs = after.split("#EXT-X-DISCONTINUITY\n")
        const gaps = runs.slice(1).map((fresh, i) => {
          const ended = [...(runs[i] ?? "").matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)\n#EXTINF:([\d.]+),/g)].at(-1)
          const began = /#EXT-X-PROGRAM-DATE-TIME:(\S+)/.exec(fresh)?.[1]
          return Date.parse(began ?? "") - (Date.parse(ended?.[1] ?? "") + 1000 * Number(ended?.[2]))
        })
        // (a relay gets back what its upstream still lists of that time)
        expect(Math.max(...gaps.filter(Number.isFinite))).toBeGreaterThan(1000)
      }
    },
    3 * WAIT_MS
  )

  it(
    "keeps the window across a restart of the server",
    async () => {
      const before = new Map([relayed, pulled].map((channel) => [channel, ""]))
      for (const channel of [relayed, pulled]) before.set(channel, await text(channel.tv))
      await restart(server)
      await sources()
      for (const channel of [relayed, pulled]) {
        await expect.poll(async () => (await play(channel.tv)).statusCode, { timeout: WAIT_MS }).toBe(200)
        const after = await text(channel.tv)
        expect(sequenceOf(after)).toBe(sequenceOf(before.get(channel)!))
        const { uri, bytes } = early.get(channel)!
        const path = uri.split("?")[0] ?? ""
        expect(segmentPaths(after)).toContain(path)
        const old = await play(`${path}?grant=${new URL(channel.tv, "http://x").searchParams.get("grant")}`)
        expect(old.rawPayload.equals(bytes)).toBe(true)
      }
    },
    2 * WAIT_MS
  )

  it("turns the window off with timeshiftHours 0: the TV player's playlist is the live one, old segments are gone", async () => {
    await admin("settings:set", "--key", "timeshiftHours", "--value", "0")
    // the setting is read again every few seconds
    await expect.poll(async () => (await text(pulled.tv)).includes("CAN-SKIP-UNTIL"), { timeout: WAIT_MS, interval: 1000 }).toBe(false)
    const { uri } = early.get(pulled)!
    expect((await play(uri)).statusCode).toBe(404)
    await expect.poll(() => readdirSync(path.join(server.config.timeshift.dir)).flatMap((channel) => files(server, channel)).length).toBe(0)
  })
})

describe.skipIf(!hasFfmpeg())("the time-shift window's byte caps", () => {
  let server: TestServer
  let broadcast: TsBroadcast
  const PER_CHANNEL = 0.25 * 1024 * 1024
  const TOTAL = 0.4 * 1024 * 1024

  beforeAll(async () => {
    broadcast = await startTsBroadcast()
    server = await startTestServer(dialects[0]!, { env: { TIMESHIFT_CHANNEL_MB: "0.25", TIMESHIFT_TOTAL_MB: "0.4" } })
    await server.db.kysely.deleteFrom("streams").execute()
  })
  afterAll(async () => {
    await server?.dispose()
    await broadcast?.stop()
  })

  it(
    "holds each channel's window to TIMESHIFT_CHANNEL_MB and all to TIMESHIFT_TOTAL_MB, dropping the oldest first",
    async () => {
      for (const title of ["One", "Two"]) {
        const lines: Array<string> = []
        const code = await runAdmin(["stream:add", "--title", title, "--pull", broadcast.url], {
          config: server.config,
          out: (line) => lines.push(line),
          db: server.db,
          now: () => server.clock
        })
        expect(code, lines.join("\n")).toBe(0)
      }
      await server.addUser({ email: "caps-viewer@example.com" })
      const token = await server.signIn("caps-viewer@example.com")
      const streams = (await server.call("streams", { token })).json() as { data: Array<{ src: string }> }
      const play = (url: string) => server.app.inject({ method: "GET", url, remoteAddress: "10.91.0.1" })
      const channels = streams.data.map((stream) => /\/live\/([^/]+)\//.exec(stream.src)?.[1] ?? "")
      for (const stream of streams.data) await expect.poll(async () => (await play(stream.src)).statusCode, { timeout: WAIT_MS }).toBe(200)
      const held = (channel: string) => windowFiles(server, channel)
      const first = new Map<string, number>()
      const dropped = new Map<string, string>()
      await expect
        .poll(
          async () => {
            // the viewers stay
            for (const stream of streams.data) await play(stream.src)
            let total = 0
            for (const channel of channels) {
              const files = held(channel)
              const bytes = files.reduce((sum, file) => sum + file.size, 0)
              total += bytes
              expect(bytes).toBeLessThanOrEqual(PER_CHANNEL + 64 * 1024)
              const sequences = files.flatMap((file) => /-(\d+)\.m4s$/.exec(file.name)?.[1] ?? []).map(Number)
              if (sequences.length === 0) continue
              // the newest, without holes: the oldest went first
              expect(Math.max(...sequences) - Math.min(...sequences) + 1).toBe(sequences.length)
              if (!first.has(channel)) first.set(channel, Math.min(...sequences))
              const oldest = files.find((file) => file.name.endsWith(`-${first.get(channel)}.m4s`))
              if (oldest === undefined && !dropped.has(channel)) dropped.set(channel, `${first.get(channel)}`)
            }
            expect(total).toBeLessThanOrEqual(TOTAL + 64 * 1024)
            return channels.every((channel) => dropped.has(channel) && held(channel).length > 1) && total > PER_CHANNEL
          },
          { timeout: GROW_MS, interval: 1000 }
        )
        .toBe(true)
      // the feeds stop (their memory emptied): a dropped segment is gone, a kept one still plays
      server.clock += 61_000
      await expect.poll(() => packagingChildren().length, { timeout: WAIT_MS }).toBe(0)
      const [stream] = streams.data
      const [channel] = channels
      const grant = new URL(stream?.src ?? "", "http://x").searchParams.get("grant")
      // the newest: the oldest may yet go to the total cap as the other channel's last segment is kept
      const sequenceOf = (name: string) => Number(/-(\d+)\.m4s$/.exec(name)?.[1] ?? -1)
      const newest = () =>
        held(channel ?? "")
          .filter((file) => file.name.endsWith(".m4s"))
          .sort((a, b) => sequenceOf(b.name) - sequenceOf(a.name))[0]
      const run = newest()?.name.split("-")[0]
      expect((await play(`/live/${channel}/m/${run}-${first.get(channel ?? "")}.m4s?grant=${grant}`)).statusCode).toBe(404)
      await expect
        .poll(async () => (await play(`/live/${channel}/m/${newest()?.name}?grant=${grant}`)).statusCode, { timeout: WAIT_MS })
        .toBe(200)
    },
    GROW_MS + 2 * WAIT_MS
  )
})

/** The upstream's own bytes of a segment we relay, found by its name among those the upstream lists now. */
async function upstreamBytes(upstream: Upstream, uri: string): Promise<Buffer> {
  const playlistUrl = `${upstream.url}/live/demo1/ll.m3u8`
  const listed = (await (await fetch(playlistUrl)).text()).split("\n").filter((line) => line !== "" && !line.startsWith("#"))
  const name = uri.split("?")[0]?.split("/").at(-1)
  const url = listed.map((line) => new URL(line, playlistUrl).href).find((each) => localName(each, false) === name)
  expect(url).toBeDefined()
  return Buffer.from(await (await fetch(url ?? "")).arrayBuffer())
}

/** The files of a channel's window, with their sizes (its index file left out). */
function windowFiles(server: TestServer, channel: string): Array<{ readonly name: string; readonly size: number }> {
  const dir = path.join(server.config.timeshift.dir, channel, "index")
  try {
    return readdirSync(dir)
      .filter((name) => name !== "index.jsonl")
      .flatMap((name) => {
        try {
          return [{ name, size: statSync(path.join(dir, name)).size }]
        } catch {
          return []
        }
      })
  } catch {
    return []
  }
}

/** The files of a channel's window. */
function files(server: TestServer, channel: string): Array<string> {
  const dir = path.join(server.config.timeshift.dir, channel)
  try {
    return readdirSync(dir).flatMap((track) =>
      readdirSync(path.join(dir, track)).filter((file) => statSync(path.join(dir, track, file)).isFile())
    )
  } catch {
    return []
  }
}
