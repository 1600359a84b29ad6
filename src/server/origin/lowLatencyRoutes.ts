import type { FastifyInstance, FastifyReply } from "fastify"
import { LIVE_PLAYLIST_ROUTE, mediaReply, playlistReply, refuse } from "../http/liveReplies.ts"
import { reloadDecision } from "./blockingReload.ts"
import { loopFileIndex, targetDurationOf } from "./livePlaylist.ts"
import type { LiveWaits } from "./liveWaits.ts"
import { isPartPublished, type LowLatencyClock, liveEdge, lowLatencyPlaylist, parsePartName, partEndsAt } from "./lowLatencyPlaylist.ts"
import type { ManifestPart, ManifestSegment } from "./originManifest.ts"

export interface LowLatencySource {
  readonly segments: ReadonlyArray<ManifestSegment & { readonly parts: ReadonlyArray<ManifestPart> }>
  /** whole segment files, in loop order */
  readonly bytes: ReadonlyArray<Buffer>
}

export interface LowLatencyRoutes {
  readonly channels: ReadonlyMap<string, LowLatencySource>
  /** the channel's timeline as of this instant */
  readonly clockOf: (source: LowLatencySource) => LowLatencyClock
  readonly waits: LiveWaits
  readonly now: () => number
}

export const lowLatencyPlaylistPath = (channel: string): string => `/live/${channel}/ll.m3u8`

// A departed client should not keep a timer alive; the response's `close` fires before it
// finishes only when the connection went away.
const abortOnClose = (reply: FastifyReply): AbortSignal => {
  const controller = new AbortController()
  reply.raw.once("close", () => controller.abort())
  return controller.signal
}

/**
 * `ll.m3u8` with blocking reloads, and `part/<seq>.<part>.ts` byte ranges of the cached segments.
 * Nothing waits longer than three target durations, the spec's bound for a blocked request.
 */
export const registerLowLatencyRoutes = (app: FastifyInstance, routes: LowLatencyRoutes): void => {
  const { channels, clockOf, waits, now } = routes
  const deadline = (source: LowLatencySource) => now() + 3000 * targetDurationOf(source.segments)

  app.get<{ Params: { channel: string }; Querystring: Record<string, unknown> }>(
    "/live/:channel/ll.m3u8",
    LIVE_PLAYLIST_ROUTE,
    async (request, reply) => {
      const source = channels.get(request.params.channel)
      if (source === undefined) return refuse(reply, 404, "unknown channel")
      const query = request.query ?? {}
      const decision = reloadDecision(clockOf(source), query._HLS_msn, query._HLS_part)
      if (decision.kind === "bad") return refuse(reply, 400, decision.detail)
      // On timeout or shutdown the playlist as it stands is still a valid answer.
      if (decision.kind === "wait") await waits.until(decision.until, deadline(source), abortOnClose(reply))
      return playlistReply(reply, lowLatencyPlaylist(clockOf(source)))
    }
  )

  app.get<{ Params: { channel: string; name: string } }>("/live/:channel/part/:name", async (request, reply) => {
    const source = channels.get(request.params.channel)
    if (source === undefined) return refuse(reply, 404, "unknown channel")
    const name = parsePartName(request.params.name)
    if (name === undefined) return refuse(reply, 404, "unknown part")
    const { sequence, part } = name
    const clock = clockOf(source)
    if (!isPartPublished(clock, sequence, part)) {
      const edge = liveEdge(clock)
      // Only the preload-hinted part may be asked for early; it is sent the moment it is out.
      if (sequence !== edge.sequence || part !== edge.parts) return refuse(reply, 404, "unknown part")
      const reached = await waits.until(partEndsAt(clock, sequence, part), deadline(source), abortOnClose(reply))
      if (!reached) return refuse(reply, 503, "part not ready")
    }
    const index = loopFileIndex(source.segments.length, sequence)
    const range = source.segments[index]?.parts[part]
    const bytes = source.bytes[index]
    if (range === undefined || bytes === undefined) return refuse(reply, 404, "unknown part")
    return mediaReply(reply, bytes.subarray(range.offset, range.offset + range.size))
  })
}
