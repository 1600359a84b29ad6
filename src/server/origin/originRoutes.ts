import { readFile } from "node:fs/promises"
import path from "node:path"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { LIVE_PLAYLIST_ROUTE, mediaReply, playlistReply, refuse } from "../http/liveReplies.ts"
import { isPublished, livePlaylist, loopFileIndex, parseSegmentName } from "./livePlaylist.ts"
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
      return playlistReply(reply, livePlaylist({ segments: channel.segments, startedAt, now: now(), windowSize }))
    }
  )

  app.get<{ Params: { channel: string; name: string } }>("/live/:channel/seg/:name", async (request, reply) => {
    const channel = channels.get(request.params.channel)
    if (channel === undefined) return refuse(reply, 404, "unknown channel")
    const sequence = parseSegmentName(request.params.name)
    // Unpublished sequences are refused so the origin behaves like a real live encoder.
    if (sequence === undefined || !isPublished({ segments: channel.segments, startedAt, now: now(), windowSize }, sequence)) {
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
