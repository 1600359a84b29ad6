import { spawn } from "node:child_process"
import type { Kysely } from "kysely"
import type { FeedStatus } from "../../domain/Reports.ts"
import type { FeedKind, Tables } from "../db/schema.ts"
import { type Header, headersOf, listFeeds, readHealth, saveFeed } from "./feedsRepo.ts"
import { ffmpegPath } from "./pulledFeed.ts"
import { HEALTH_FRESH_MS } from "./relayFeeds.ts"
import { PlaylistError, rewritePlaylist } from "./relayPlaylist.ts"
import { fetchUpstream, parseHeader, UpstreamError } from "./relayUpstream.ts"

/** What a probe of an upstream found, in a few words for the operator. */
export interface UpstreamSummary {
  /** e.g. "LL-HLS media playlist (parts, blocking reload)" or "multivariant playlist, 3 variants" */
  readonly description: string
}

/** Why an upstream cannot be relayed, in one line. */
export class RelayRefused extends Error {
  override readonly name = "RelayRefused"
}

const PROBE_TIMEOUT_MS = 10_000

/** Asks the upstream for its playlist once: refused when the address is bad, unreachable or not a playlist. */
export async function probeUpstream(url: string, headers: ReadonlyArray<Header>): Promise<UpstreamSummary> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new RelayRefused(`"${url}" is not a URL`)
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new RelayRefused(`"${url}" is not an http(s) URL`)
  try {
    const answer = await fetchUpstream({ url: parsed.href, headers, maxBytes: 2 * 1024 * 1024, timeoutMs: PROBE_TIMEOUT_MS })
    const playlist = rewritePlaylist(answer.body.toString("utf8"), answer.url, "probe", { sequenceOffset: 0, discontinuityOffset: 0 })
    if (playlist.multivariant) {
      const variants = [...playlist.uris.values()].filter((uri) => uri.playlist).length
      return { description: `multivariant playlist, ${variants} playlist(s)` }
    }
    const name = playlist.partTarget > 0 ? "LL-HLS media playlist" : "HLS media playlist"
    const features = [playlist.partTarget > 0 ? "parts" : "", playlist.canBlockReload ? "blocking reload" : ""].filter(Boolean)
    return { description: `${name}${features.length > 0 ? ` (${features.join(", ")})` : ""}${playlist.endList ? ", ended (VOD)" : ""}` }
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof PlaylistError) throw new RelayRefused(`${url}: ${error.message}`)
    throw error
  }
}

/** `--header 'Name: value'`, each checked. */
export function readHeaders(texts: ReadonlyArray<string>): Array<Header> {
  return texts.map((text) => {
    const header = parseHeader(text)
    if (header === undefined) throw new RelayRefused(`--header must be "Name: value" on one line (got "${text}")`)
    return header
  })
}

/** The `/live/<channel>/` a relayed or pulled stream is served at. */
export const relayChannelOf = (streamId: number, kind: FeedKind = "relay"): string => `${kind}${streamId}`

/** The playlist both players of a relayed or pulled stream open. */
export const relayPlaylistOf = (streamId: number, kind: FeedKind = "relay"): string => `/live/${relayChannelOf(streamId, kind)}/index.m3u8`

// What ffmpeg may pull from: network sources only, never the server's own files.
const PULL_PROTOCOLS = new Set(["http:", "https:", "rtsp:", "rtsps:", "rtmp:", "rtmps:", "srt:", "udp:", "rtp:", "tcp:"])

/**
 * Asks ffprobe what the source carries: refused, in one line, when ffmpeg is missing, the address
 * is not a network one, or the source cannot be read.
 */
export async function probePull(url: string): Promise<UpstreamSummary> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new RelayRefused(`"${url}" is not a URL`)
  }
  if (!PULL_PROTOCOLS.has(parsed.protocol)) {
    throw new RelayRefused(
      `"${url}" is not an address ffmpeg pulls from here (${[...PULL_PROTOCOLS].map((p) => p.slice(0, -1)).join(", ")})`
    )
  }
  const probe = await runProbe(url)
  if (probe.missing)
    throw new RelayRefused(`ffmpeg is not installed (${ffprobePath()} not found): pulled channels need it (apt-get install ffmpeg)`)
  const streams = probe.output
    .split("\n")
    .map((line) => line.trim().split(","))
    .filter(([codec, type]) => codec !== undefined && codec !== "" && (type === "video" || type === "audio"))
  if (probe.code !== 0 || streams.length === 0) {
    const said = probe.errors.trim().split("\n").at(-1) ?? ""
    throw new RelayRefused(`${url}: ${said !== "" ? said.slice(0, 200) : "no audio or video found"}`)
  }
  // a stream inside a program is listed there too
  const named = [...new Set(streams.map(([codec, type]) => `${codec} ${type}`))]
  return { description: `${named.join(", ")} pulled by ffmpeg` }
}

const ffprobePath = (): string => process.env.FFPROBE_PATH ?? "ffprobe"

/** ffmpeg's version line; refused, in one line, when ffmpeg is missing or does not run. */
export const ffmpegVersion = (): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), ["-hide_banner", "-version"], { stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(0, 2000)))
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new RelayRefused(
          error.code === "ENOENT"
            ? `ffmpeg is not installed (${ffmpegPath()} not found; apt-get install ffmpeg)`
            : `ffmpeg: ${error.message}`
        )
      )
    )
    child.once("close", (code) =>
      code === 0
        ? resolve(output.split("\n", 1)[0] ?? "ffmpeg")
        : reject(new RelayRefused(`${ffmpegPath()} -version failed (exit ${code})`))
    )
  })

const runProbe = (url: string): Promise<{ code: number | null; output: string; errors: string; missing: boolean }> =>
  new Promise((resolve) => {
    const child = spawn(
      ffprobePath(),
      [
        "-v",
        "error",
        ...(/^https?:/i.test(url) ? ["-rw_timeout", "10000000"] : []),
        "-show_entries",
        "stream=codec_name,codec_type",
        "-of",
        "csv=p=0",
        url
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 20_000
      }
    )
    let output = ""
    let errors = ""
    child.stdout.on("data", (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(-10_000)))
    child.stderr.on("data", (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-2000)))
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve({ code: null, output, errors: error.message, missing: error.code === "ENOENT" })
    )
    child.once("close", (code) =>
      resolve({ code, output, errors: code === null && errors === "" ? "no answer within 20 s" : errors, missing: false })
    )
  })

export interface RelayOf {
  readonly kind?: FeedKind
  readonly streamId: number
  readonly upstreamUrl: string
  readonly headers: ReadonlyArray<Header>
  readonly alwaysOn: boolean
  readonly at: string
}

/** Makes the stream a relay of its upstream (or changes its upstream), inside the caller's transaction. */
export async function saveRelay(db: Kysely<Tables>, relay: RelayOf): Promise<void> {
  await saveFeed(db, {
    kind: relay.kind ?? "relay",
    streamId: relay.streamId,
    channel: relayChannelOf(relay.streamId, relay.kind),
    upstreamUrl: relay.upstreamUrl,
    headers: relay.headers,
    alwaysOn: relay.alwaysOn,
    at: relay.at
  })
}

/** Each stream's feed as the operator sees it: upstream, headers, and the state its instance last reported. */
export interface FeedListing {
  readonly kind: FeedKind
  readonly streamId: number
  readonly channel: string
  readonly upstreamUrl: string
  readonly headers: number
  readonly alwaysOn: boolean
  readonly state: string
}

export async function listRelays(db: Kysely<Tables>, now: number): Promise<Map<number, FeedListing>> {
  const [feeds, health] = await Promise.all([listFeeds(db), readHealth(db)])
  const stateOf = new Map(health.filter((row) => now - Date.parse(row.at) < HEALTH_FRESH_MS).map((row) => [row.channel, row.state]))
  return new Map(
    feeds.map((feed) => [
      feed.stream_id,
      {
        kind: feed.kind,
        streamId: feed.stream_id,
        channel: feed.channel,
        upstreamUrl: feed.upstream_url,
        headers: headersOf(feed).length,
        alwaysOn: feed.always_on,
        state: stateOf.get(feed.channel) ?? "idle"
      }
    ])
  )
}

const STATES = new Set<FeedStatus["state"]>(["idle", "starting", "live", "stalled", "failed"])

/** Every relayed channel's feed for staff: the figures its instance last wrote, or idle when nobody runs it. */
export async function feedStatuses(db: Kysely<Tables>, now: number): Promise<Array<FeedStatus>> {
  const [feeds, health, titles] = await Promise.all([
    listFeeds(db),
    readHealth(db),
    db.selectFrom("streams").select(["id", "title"]).execute()
  ])
  const titleOf = new Map(titles.map((row) => [row.id, row.title]))
  const healthOf = new Map(health.map((row) => [row.channel, row]))
  return feeds.map((feed): FeedStatus => {
    const row = healthOf.get(feed.channel)
    const age = row === undefined ? Number.POSITIVE_INFINITY : now - Date.parse(row.at)
    const idle: FeedStatus = {
      streamId: feed.stream_id,
      stream: titleOf.get(feed.stream_id) ?? feed.channel,
      state: "idle",
      upstreamStatus: null,
      newestAgeMs: null,
      bitrate: 0,
      viewers: 0,
      restarts: 0,
      lastError: null
    }
    if (row === undefined || !(age < HEALTH_FRESH_MS) || !STATES.has(row.state as FeedStatus["state"])) return idle
    const figures = readFigures(row.figures)
    return {
      ...idle,
      state: row.state as FeedStatus["state"],
      upstreamStatus: figures.upstreamStatus,
      newestAgeMs: figures.newestAgeMs === null ? null : figures.newestAgeMs + Math.max(0, age),
      bitrate: figures.bitrate,
      viewers: figures.viewers,
      restarts: figures.restarts,
      lastError: figures.lastError,
      source: figures.source,
      encoder: figures.encoder
    }
  })
}

const numberOr = <T>(value: unknown, fallback: T): number | T => (typeof value === "number" && Number.isFinite(value) ? value : fallback)

function readFigures(text: string) {
  let value: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(text)
    if (typeof parsed === "object" && parsed !== null) value = parsed as Record<string, unknown>
  } catch {
    // a row nobody could read counts as no figures
  }
  return {
    upstreamStatus: numberOr(value.upstreamStatus, null),
    newestAgeMs: numberOr(value.newestAgeMs, null),
    bitrate: numberOr(value.bitrate, 0),
    viewers: numberOr(value.viewers, 0),
    restarts: numberOr(value.restarts, 0),
    lastError: typeof value.lastError === "string" ? value.lastError : null,
    source: typeof value.source === "string" ? value.source : null,
    encoder: encoderOf(value.encoder)
  }
}

function encoderOf(value: unknown): FeedStatus["encoder"] {
  if (typeof value !== "object" || value === null) return null
  const figures = value as Record<string, unknown>
  return { fps: numberOr(figures.fps, null), speed: numberOr(figures.speed, null), bitrate: numberOr(figures.bitrate, null) }
}
