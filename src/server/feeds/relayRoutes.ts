/**
 * The routes of the relayed and pulled channels: for viewers under `/live` (the stream guard has
 * checked each grant first), and for the other instances under `/internal/relay` while this one
 * owns the channel.
 */
import { promisify } from "node:util"
import { gzip } from "node:zlib"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { LIVE_PLAYLIST_ROUTE, mediaReply, playlistReply, refuse } from "../http/liveReplies.ts"
import type { ChannelFeed, PlaylistAnswer } from "./relayFeed.ts"
import type { RelayFeeds } from "./relayFeeds.ts"
import { peerOf } from "./relayPeers.ts"
import { withViewerGrant } from "./relayPlaylist.ts"

/** What the player is told while a channel has no playlist to give. */
const UNAVAILABLE = {
  starting: "Starting the channel…",
  signalLost: "The channel's signal was lost. Trying again…"
} as const

/** The viewer's grant: the stream guard has checked it before any of these routes runs. */
const grantIn = (request: FastifyRequest<{ Querystring: Record<string, unknown> }>): string => {
  const grant = request.query?.grant
  return typeof grant === "string" ? grant : ""
}

/**
 * Whether the grant is the TV player's: its playlists carry the time-shift window (the low-latency
 * player's stay the short live ones). A grant's fifth field names its player (`g1.user.session.
 * stream.tv.channel.issued.signature`); the stream guard has checked the signature.
 */
const forTvPlayer = (request: FastifyRequest<{ Querystring: Record<string, unknown> }>): boolean =>
  grantIn(request).split(".", 5)[4] === "tv"

/** `_HLS_skip=YES` (or `v2`: there are no date ranges to skip) asks for a delta update. */
const skipAsked = (value: unknown): boolean => value === "YES" || value === "v2"

const gzipped = promisify(gzip)
// a window's whole playlist lists hours of segments: sent compressed, once per player (delta updates follow)
const COMPRESS_FROM = 32 * 1024

const windowReply = async (request: FastifyRequest, reply: FastifyReply, text: string) => {
  if (text.length < COMPRESS_FROM || !/\bgzip\b/.test(request.headers["accept-encoding"] ?? "")) {
    return playlistReply(reply.header("Vary", "Accept-Encoding"), text)
  }
  const body = await gzipped(text, { level: 6 })
  return playlistReply(reply.header("Vary", "Accept-Encoding").header("Content-Encoding", "gzip"), body)
}

const answerPlaylist = (reply: FastifyReply, answer: PlaylistAnswer, grant: string) => {
  switch (answer.kind) {
    case "playlist":
      return playlistReply(reply, withViewerGrant(answer.playlist, grant))
    case "unavailable":
      return reply
        .code(503)
        .header("Cache-Control", "no-cache")
        .header("Retry-After", "2")
        .send({ success: false, status: 503, detail: UNAVAILABLE[answer.reason], reason: answer.reason })
    case "bad":
      return refuse(reply, 400, answer.detail)
    case "unknown":
      return refuse(reply, 404, "unknown playlist")
  }
}

const UNKNOWN_CHANNEL = { status: 404, detail: "unknown channel" } as const
// the lease moved on: the peer asks again where the channel is
const NOT_OWNER = { status: 503, detail: "this instance does not run the channel's feed" } as const

type RelayRequest = FastifyRequest<{ Params: { channel: string; name: string }; Querystring: Record<string, unknown> }>
type RelayIndexRequest = FastifyRequest<{ Params: { channel: string }; Querystring: Record<string, unknown> }>

/** The handler of a relayed channel's own playlist. */
export type RelayIndex = (request: RelayIndexRequest, reply: FastifyReply) => Promise<unknown>

/** Who a request is served for: a viewer (by grant), or another instance taking the channel from its owner. */
interface Served {
  /** the channel's feed, or why it cannot be served here */
  readonly feed: (channel: string) => Promise<ChannelFeed | { readonly status: 404 | 503; readonly detail: string }>
  /** whether the request may be served at all */
  readonly allowed: (request: FastifyRequest) => Promise<boolean>
  /** counts the viewer and starts the feed */
  readonly admit: (request: FastifyRequest<{ Querystring: Record<string, unknown> }>, feed: ChannelFeed) => void
  /** the grant a playlist's URIs carry */
  readonly grant: (request: FastifyRequest<{ Querystring: Record<string, unknown> }>) => string
  /** whether the playlist carries the time-shift window */
  readonly windowed: (request: FastifyRequest<{ Querystring: Record<string, unknown> }>) => boolean
}

const served = (app: FastifyInstance, prefix: string, serve: Served, options: { readonly index: boolean }): RelayIndex => {
  const playlist = async (request: RelayIndexRequest, reply: FastifyReply, name: string | undefined) => {
    if (!(await serve.allowed(request))) return refuse(reply, 403, "not an instance of this service")
    const feed = await serve.feed(request.params.channel)
    if ("status" in feed) return refuse(reply, feed.status, feed.detail)
    serve.admit(request, feed)
    const answer = await feed.playlist(name, request.query ?? {})
    if (answer.kind === "playlist" && feed.windowed !== undefined && serve.windowed(request)) {
      const pieces = await feed.windowed(name, answer.playlist, skipAsked(request.query?._HLS_skip))
      if (pieces !== undefined) return windowReply(request, reply, pieces.join(encodeURIComponent(serve.grant(request))))
    }
    return answerPlaylist(reply, answer, serve.grant(request))
  }
  const index: RelayIndex = (request, reply) => playlist(request, reply, undefined)
  if (options.index) app.get(`${prefix}/:channel/index.m3u8`, LIVE_PLAYLIST_ROUTE, index)
  app.get(`${prefix}/:channel/p/:name`, LIVE_PLAYLIST_ROUTE, (request: RelayRequest, reply) =>
    playlist(request, reply, request.params.name)
  )

  app.get(`${prefix}/:channel/m/:name`, async (request: RelayRequest, reply) => {
    if (!(await serve.allowed(request))) return refuse(reply, 403, "not an instance of this service")
    const feed = await serve.feed(request.params.channel)
    if ("status" in feed) return refuse(reply, feed.status, feed.detail)
    serve.admit(request, feed)
    const answer = await feed.media(request.params.name)
    if (answer.kind === "unknown") return refuse(reply, 404, "unknown media")
    if (answer.kind === "failed") {
      return reply.code(502).header("Cache-Control", "no-cache").send({ success: false, status: 502, detail: answer.detail })
    }
    return mediaReply(reply, answer.entry.body, answer.entry.contentType)
  })
  return index
}

/**
 * A relayed channel's own playlist (the handler the origin's `index.m3u8` route falls back to),
 * the routes of its variant playlists (`p/`) and media (`m/`), and the same for the other
 * instances under `/internal/relay` while this one owns the channel.
 */
export function registerRelayRoutes(app: FastifyInstance, feeds: RelayFeeds, options: { readonly index: boolean }): RelayIndex {
  // the stream guard has checked the viewer's grant before any of these routes runs
  const viewers: Served = {
    feed: async (channel) => (await feeds.feed(channel)) ?? UNKNOWN_CHANNEL,
    allowed: async () => true,
    admit: (request, feed) => feed.touch(grantIn(request)),
    grant: grantIn,
    windowed: forTvPlayer
  }
  const peers: Served = {
    feed: async (channel) => {
      const feed = await feeds.owned(channel)
      return feed === "elsewhere" ? NOT_OWNER : (feed ?? UNKNOWN_CHANNEL)
    },
    allowed: (request) => feeds.owners.verify(request.headers),
    admit: (request, feed) => {
      const peer = peerOf(request.headers)
      feed.touchPeer(peer.instance, peer.viewers)
    },
    grant: () => "",
    // another instance takes the live playlist and writes the window from its copy of the index
    windowed: () => false
  }
  served(app, "/internal/relay", peers, { index: true })
  registerWindowCopies(app, feeds)
  return served(app, "/live", viewers, options)
}

type WindowCopyRequest = FastifyRequest<{ Params: { channel: string; track: string }; Querystring: Record<string, unknown> }>

/** The owner's time-shift index of a channel's playlist, from `?from=` on, for the other instances. */
function registerWindowCopies(app: FastifyInstance, feeds: RelayFeeds): void {
  app.get("/internal/relay/:channel/window/:track", async (request: WindowCopyRequest, reply) => {
    if (!(await feeds.owners.verify(request.headers))) return refuse(reply, 403, "not an instance of this service")
    const feed = await feeds.owned(request.params.channel)
    if (feed === "elsewhere") return refuse(reply, NOT_OWNER.status, NOT_OWNER.detail)
    if (feed === undefined) return refuse(reply, UNKNOWN_CHANNEL.status, UNKNOWN_CHANNEL.detail)
    const from = Number(request.query?.from)
    const epoch = request.query?.epoch
    const copy = feed.windowCopy?.(
      request.params.track,
      Number.isSafeInteger(from) ? from : 0,
      typeof epoch === "string" ? epoch : undefined
    )
    if (copy === undefined) return refuse(reply, 404, "no time-shift window")
    return reply.header("Cache-Control", "no-cache").send(copy)
  })
}
