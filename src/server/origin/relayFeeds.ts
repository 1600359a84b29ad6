import { randomUUID } from "node:crypto"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import type { Kysely } from "kysely"
import type { Db } from "../db/database.ts"
import type { StreamFeedRow, Tables } from "../db/schema.ts"
import { startPeriodicJob } from "../http/periodicJob.ts"
import type { Job } from "../http/serverFeature.ts"
import { type HealthRow, headersOf, listFeeds, writeHealth } from "./feedsRepo.ts"
import { mediaReply, playlistReply, refuse } from "./originReplies.ts"
import { DEFAULT_RELAY_TIMING, type FeedHealth, type PlaylistAnswer, RelayFeed, type RelaySettings, type RelayTiming } from "./relayFeed.ts"
import { withViewerGrant } from "./relayPlaylist.ts"
import { createRelayRing, DEFAULT_RING_CAPS, type RingCaps } from "./relayRing.ts"

/** The relayed channels this instance serves, kept in step with `stream_feeds`. */
export interface RelayFeeds extends Job {
  /** The feed of a channel, if it is relayed. */
  feed(channel: string): Promise<RelayFeed | undefined>
  /** Every relayed channel's health, channel order. */
  health(): Promise<Array<FeedHealth>>
}

export interface RelayFeedsDeps {
  readonly db: Kysely<Tables>
  readonly tableVersion: Db["tableVersion"]
  readonly now: () => number
  readonly timing?: Partial<RelayTiming>
  readonly caps?: RingCaps
  readonly onError: (error: unknown) => void
}

const TIDY_EVERY_MS = 2000
// a running feed's health is written this often, and at once when its state changes
const HEALTH_EVERY_MS = 5000
/** A health row older than this is of a feed nobody runs any more. */
export const HEALTH_FRESH_MS = 15_000
const INSTANCE = randomUUID()

const settingsOf = (row: StreamFeedRow): RelaySettings => ({
  channel: row.channel,
  upstreamUrl: row.upstream_url,
  headers: headersOf(row),
  alwaysOn: row.always_on
})

const sameSettings = (a: RelaySettings, b: RelaySettings): boolean =>
  a.upstreamUrl === b.upstreamUrl && a.alwaysOn === b.alwaysOn && JSON.stringify(a.headers) === JSON.stringify(b.headers)

export function createRelayFeeds({ db, tableVersion, now, timing, caps, onError }: RelayFeedsDeps): RelayFeeds {
  const ring = createRelayRing(caps ?? DEFAULT_RING_CAPS)
  const deps = { ring, now, timing: { ...DEFAULT_RELAY_TIMING, ...timing } }
  const feeds = new Map<string, RelayFeed>()
  let synced: { version: number | undefined; at: number; done: Promise<void> } | undefined

  // The rows as they are now: new feeds are made, changed ones start afresh, removed ones stop.
  const sync = async (): Promise<void> => {
    const rows = await listFeeds(db)
    const seen = new Set<string>()
    for (const row of rows) {
      if (row.kind !== "relay") continue
      seen.add(row.channel)
      const settings = settingsOf(row)
      const feed = feeds.get(row.channel)
      if (feed === undefined) {
        feeds.set(row.channel, new RelayFeed(settings, deps))
      } else if (!sameSettings(feed.settings, settings)) {
        const running = feed.isRunning
        feed.stop()
        feed.settings = settings
        if (running) feed.start()
      }
    }
    for (const [channel, feed] of feeds) {
      if (seen.has(channel)) continue
      feed.stop()
      feeds.delete(channel)
    }
  }
  // Read again when the table's version moves; without a version (PostgreSQL's listener away), every second.
  const current = (): Promise<void> => {
    const version = tableVersion("stream_feeds")
    const at = now()
    if (synced !== undefined && (version === undefined ? at - synced.at < 1000 : synced.version === version)) return synced.done
    const done = sync()
    synced = { version, at, done }
    done.catch(() => (synced = undefined))
    return done
  }

  const written = new Map<string, { readonly news: string; readonly at: number }>()
  const tidy = startPeriodicJob(
    async () => {
      await current()
      const at = now()
      const rows: Array<HealthRow> = []
      for (const feed of feeds.values()) {
        feed.tidy()
        const health = feed.health()
        // written at once when the state, the upstream's answer or the error changes; otherwise now and then
        const news = `${health.state} ${health.upstreamStatus} ${health.lastError}`
        const last = written.get(feed.channel)
        const due =
          last === undefined ? health.state !== "idle" : last.news !== news || (health.state !== "idle" && at - last.at >= HEALTH_EVERY_MS)
        if (!due) continue
        written.set(feed.channel, { news, at })
        const { channel, state, ...figures } = health
        rows.push({ channel, instance: INSTANCE, state, figures: JSON.stringify(figures), at: new Date(at).toISOString() })
      }
      await writeHealth(db, rows)
    },
    { everyMs: TIDY_EVERY_MS, firstAfterMs: 0, onError }
  )

  return {
    async feed(channel) {
      await current()
      return feeds.get(channel)
    },
    async health() {
      await current()
      return [...feeds.values()].map((feed) => feed.health())
    },
    async stop() {
      await tidy.stop()
      for (const feed of feeds.values()) feed.stop()
      feeds.clear()
    }
  }
}

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

type RelayRequest = FastifyRequest<{ Params: { channel: string; name: string }; Querystring: Record<string, unknown> }>

/**
 * A relayed channel's own playlist (the handler the origin's `index.m3u8` route falls back to),
 * and the routes of its variant playlists (`p/`) and media (`m/`).
 */
export function registerRelayRoutes(app: FastifyInstance, feeds: RelayFeeds, options: { readonly index: boolean }): RelayIndex {
  // the channel's own playlist (no name) or one of its variants
  const playlist = async (request: RelayIndexRequest, reply: FastifyReply, name: string | undefined) => {
    const feed = await feeds.feed(request.params.channel)
    if (feed === undefined) return refuse(reply, 404, "unknown channel")
    const grant = grantIn(request)
    feed.touch(grant)
    return answerPlaylist(reply, await feed.playlist(name, request.query ?? {}), grant)
  }
  const index: RelayIndex = (request, reply) => playlist(request, reply, undefined)
  if (options.index) app.get("/live/:channel/index.m3u8", index)
  app.get("/live/:channel/p/:name", (request: RelayRequest, reply) => playlist(request, reply, request.params.name))

  app.get("/live/:channel/m/:name", async (request: RelayRequest, reply) => {
    const feed = await feeds.feed(request.params.channel)
    if (feed === undefined) return refuse(reply, 404, "unknown channel")
    feed.touch(grantIn(request))
    const answer = await feed.media(request.params.name)
    if (answer.kind === "unknown") return refuse(reply, 404, "unknown media")
    if (answer.kind === "failed") {
      return reply.code(502).header("Cache-Control", "no-cache").send({ success: false, status: 502, detail: answer.detail })
    }
    return mediaReply(reply, answer.entry.body, answer.entry.contentType)
  })
  return index
}

type RelayIndexRequest = FastifyRequest<{ Params: { channel: string }; Querystring: Record<string, unknown> }>

/** The handler of a relayed channel's own playlist. */
export type RelayIndex = (request: RelayIndexRequest, reply: FastifyReply) => Promise<unknown>
