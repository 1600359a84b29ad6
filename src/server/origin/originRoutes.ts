import { readFile } from "node:fs/promises"
import path from "node:path"
import { gzipSync } from "node:zlib"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { LIVE_PLAYLIST_ROUTE, mediaReply, playlistReply, refuse } from "../http/liveReplies.ts"
import { isPublished, type LiveClock, livePlaylist, liveWindow, loopFileIndex, parseSegmentName } from "./livePlaylist.ts"
import { createLiveWaits } from "./liveWaits.ts"
import { type LowLatencySource, lowLatencyPlaylistPath, registerLowLatencyRoutes } from "./lowLatencyRoutes.ts"
import { type Manifest, readManifests } from "./originManifest.ts"

export interface OriginOptions {
  /** directory holding one sub-directory per channel, each with a `segments.json` */
  readonly mediaDir: string
  /** epoch ms; injectable so tests can move the live edge */
  readonly now?: () => number
  /**
   * Epoch ms the loops are anchored to. Defaults to 0 so that every restart and every server
   * instance agrees on the timeline and media sequences never go backwards for a connected player.
   */
  readonly startedAt?: number
  /** segments listed per playlist */
  readonly windowSize?: number
  /** the time-shift window in ms the TV player's playlists list (0 for none), as the site setting stands */
  readonly timeshiftMs?: () => Promise<number>
  /** answers `index.m3u8` of a channel that is not one of the loops (a relayed or pulled one) */
  readonly otherChannel?: (
    request: FastifyRequest<{ Params: { channel: string }; Querystring: Record<string, unknown> }>,
    reply: FastifyReply
  ) => Promise<unknown>
}

export interface OriginChannel {
  /** directory name, used in the URL */
  readonly name: string
  /** display name from the manifest, e.g. "Demo 1" */
  readonly label: string
  /** playlist path to store as a stream's `src` */
  readonly src: string
  /** Low-Latency HLS playlist path, for a stream's `src_sldp`; absent when the media has no parts */
  readonly lowLatencySrc?: string
}

interface LoadedChannel extends Manifest {
  readonly bytes: ReadonlyArray<Buffer>
}

const DEFAULT_WINDOW = 6

export const originPlaylistPath = (channel: string): string => `/live/${channel}/index.m3u8`

// The manifest parser makes parts all-or-nothing per channel.
const hasParts = <T extends Manifest>(manifest: T): manifest is T & Pick<LowLatencySource, "segments"> =>
  manifest.segments.every((segment) => segment.parts !== undefined)

export const listOriginChannels = async (mediaDir: string): Promise<Array<OriginChannel>> =>
  (await readManifests(mediaDir)).map(([name, manifest]) => {
    const channel: OriginChannel = { name, label: manifest.label, src: originPlaylistPath(name) }
    return hasParts(manifest) ? { ...channel, lowLatencySrc: lowLatencyPlaylistPath(name) } : channel
  })

const loadChannel = async (mediaDir: string, name: string, manifest: Manifest): Promise<LoadedChannel> => {
  const bytes = await Promise.all(manifest.segments.map((segment) => readFile(path.join(mediaDir, name, segment.file))))
  for (const [index, segment] of manifest.segments.entries()) {
    const last = segment.parts?.at(-1)
    const size = bytes[index]?.length
    if (last !== undefined && last.offset + last.size !== size) {
      throw new Error(`${path.join(mediaDir, name, "segments.json")}: parts of ${segment.file} do not cover its ${size} bytes`)
    }
  }
  return { ...manifest, bytes }
}

export const registerOrigin = async (app: FastifyInstance, options: OriginOptions): Promise<void> => {
  const now = options.now ?? Date.now
  const startedAt = options.startedAt ?? 0
  const windowSize = options.windowSize ?? DEFAULT_WINDOW
  const timeshiftMs = options.timeshiftMs ?? (async () => 0)
  const playlists = createLoopPlaylists()
  const channels = new Map<string, LoadedChannel>()
  const lowLatency = new Map<string, LowLatencySource>()
  for (const [name, manifest] of await readManifests(options.mediaDir)) {
    const channel = await loadChannel(options.mediaDir, name, manifest)
    channels.set(name, channel)
    if (hasParts(channel)) lowLatency.set(name, channel)
  }

  // Held low-latency responses are answered before the server waits for open requests to end.
  const waits = createLiveWaits(now)
  app.addHook("preClose", async () => waits.release())
  app.addHook("onClose", async () => waits.release())

  app.get<{ Params: { channel: string }; Querystring: Record<string, unknown> }>(
    "/live/:channel/index.m3u8",
    LIVE_PLAYLIST_ROUTE,
    async (request, reply) => {
      const channel = channels.get(request.params.channel)
      if (channel === undefined) return options.otherChannel?.(request, reply) ?? refuse(reply, 404, "unknown channel")
      const clock: LiveClock = { segments: channel.segments, startedAt, now: now(), windowSize, dvrMs: await timeshiftMs() }
      if ((clock.dvrMs ?? 0) === 0) return playlistReply(reply, playlists.bytes(request.params.channel, "live", clock))
      if (skipAsked(request.query._HLS_skip)) return playlistReply(reply, playlists.bytes(request.params.channel, "delta", clock))
      return playlists.window(request.params.channel, clock, request.headers["accept-encoding"], reply)
    }
  )

  app.get<{ Params: { channel: string; name: string } }>("/live/:channel/seg/:name", async (request, reply) => {
    const channel = channels.get(request.params.channel)
    if (channel === undefined) return refuse(reply, 404, "unknown channel")
    const sequence = parseSegmentName(request.params.name)
    // Unpublished sequences are refused so the origin behaves like a real live encoder.
    const clock: LiveClock = { segments: channel.segments, startedAt, now: now(), windowSize, dvrMs: await timeshiftMs() }
    if (sequence === undefined || !isPublished(clock, sequence)) {
      return refuse(reply, 404, "unknown segment")
    }
    const bytes = channel.bytes[loopFileIndex(channel.bytes.length, sequence)]
    if (bytes === undefined) return refuse(reply, 404, "unknown segment")
    return mediaReply(reply, bytes)
  })

  registerLowLatencyRoutes(app, {
    channels: lowLatency,
    clockOf: (source) => ({ segments: source.segments, startedAt, now: now(), windowSize }),
    waits,
    now
  })
}

/** `_HLS_skip=YES` (or `v2`: there are no date ranges to skip) asks for a delta update. */
const skipAsked = (value: unknown): boolean => value === "YES" || value === "v2"

/** Which playlist of a loop channel: the short live one, a time-shift window's delta update, or the whole window. */
type LoopPlaylist = "live" | "delta" | "window"

/**
 * A loop channel's playlists are the same for every viewer (the loop's segments need no grant)
 * and change only when a segment is published or the window's start moves: each is written once
 * per window and kept, the whole time-shift window (hours of segments) with its gzip too. The
 * window's first and end sequences name it, as the channel, the origin's start and window size
 * are fixed and the time-shift setting's length moves the first sequence.
 */
const createLoopPlaylists = () => {
  // kept as bytes: a text would be encoded again for every answer, hundreds of KB for a window
  const kept = new Map<string, { readonly key: string; readonly bytes: Buffer; gzip?: Buffer }>()
  const entry = (channel: string, kind: LoopPlaylist, clock: LiveClock) => {
    const live = liveWindow(clock)
    const key = `${live.firstSequence}-${live.endSequence}`
    const name = `${kind} ${channel}`
    let found = kept.get(name)
    if (found?.key !== key) {
      found = { key, bytes: Buffer.from(livePlaylist(clock, kind === "delta")) }
      kept.set(name, found)
    }
    return found
  }
  return {
    bytes: (channel: string, kind: Exclude<LoopPlaylist, "window">, clock: LiveClock): Buffer => entry(channel, kind, clock).bytes,
    /** the whole time-shift window, gzipped for a client that takes it */
    window(channel: string, clock: LiveClock, acceptEncoding: string | undefined, reply: FastifyReply) {
      const found = entry(channel, "window", clock)
      if (!/\bgzip\b/.test(acceptEncoding ?? "")) return playlistReply(reply.header("Vary", "Accept-Encoding"), found.bytes)
      found.gzip ??= gzipSync(found.bytes)
      return playlistReply(reply.header("Vary", "Accept-Encoding").header("Content-Encoding", "gzip"), found.gzip)
    }
  }
}
