/**
 * `/metrics`: Prometheus text, for the operator's monitoring, behind a token of its own
 * (METRICS_TOKEN; without one the path does not exist). The process (CPU, memory, event loop,
 * handles), HTTP requests by route and status with their durations, database statements with
 * theirs, and, read when scraped: the mail outbox, players watching each stream and each stream's
 * quality over the last hour, and each feed's state, viewers and bitrate.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { FastifyInstance } from "fastify"
import type { Kysely } from "kysely"
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"
import { connections } from "../connections/connectionsFeature.ts"
import type { Db } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import { feeds } from "../feeds/feedsFeature.ts"

const digest = (text: string): Buffer => createHash("sha256").update(text).digest()

/** Whether a request's `Authorization: Bearer …` is the token, compared in constant time. */
export const bearerMatches = (header: string | undefined, token: string): boolean => {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1]
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}

export interface MetricsOptions {
  readonly db: Kysely<Tables>
  readonly onQuery: Db["onQuery"]
  readonly token: string
  readonly now: () => number
}

// a scrape reads each stream's quality once for the three figures that come from it
const QUALITY_FOR_MS = 1000

/** One value of a gauge and the labels it goes under. */
type Reading<L extends string> = readonly [labels: Readonly<Record<L, string>>, value: number]
const reading = <L extends string>(labels: Readonly<Record<L, string>>, value: number): Reading<L> => [labels, value]

/**
 * Gauges read when scraped: each scrape sets the values `read` gives and no others, so a stream
 * or status gone since the last one is gone from the answer too.
 */
const scrapedGauge =
  (register: Registry) =>
  <L extends string>(name: string, help: string, labelNames: ReadonlyArray<L>, read: () => Promise<ReadonlyArray<Reading<L>>>): void => {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [register],
      async collect() {
        const readings = await read()
        this.reset()
        for (const [labels, value] of readings) this.set(labels, value)
      }
    })
  }

export function registerMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const { db, now } = options
  const register = new Registry()
  collectDefaultMetrics({ register, prefix: "streamhub_" })
  const requests = new Counter({
    name: "streamhub_http_requests_total",
    help: "HTTP requests answered, by route (its pattern), method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [register]
  })
  const durations = new Histogram({
    name: "streamhub_http_request_duration_seconds",
    help: "Time to answer HTTP requests, by route (its pattern)",
    labelNames: ["route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register]
  })
  const statements = new Histogram({
    name: "streamhub_database_statement_duration_seconds",
    help: "Time the database took for each statement, by kind (select, insert, update, delete, with, other)",
    labelNames: ["statement"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [register]
  })
  const stopTiming = options.onQuery((seconds, statement) => statements.observe({ statement }, seconds))
  app.addHook("onClose", async () => {
    stopTiming()
  })
  let quality: { readonly at: number; readonly value: ReturnType<typeof connections.quality> } | undefined
  const qualityNow = () => {
    const at = performance.now()
    if (quality === undefined || at - quality.at > QUALITY_FOR_MS) quality = { at, value: connections.quality(db, now()) }
    return quality.value
  }
  const gauge = scrapedGauge(register)
  gauge(
    "streamhub_stream_first_frame_seconds",
    "Median time from asking for a stream to its first picture over the last hour, by stream",
    ["stream"],
    async () =>
      (await qualityNow()).flatMap((stream) =>
        stream.medianFirstFrameMs === null ? [] : [reading({ stream: stream.streamId }, stream.medianFirstFrameMs / 1000)]
      )
  )
  gauge("streamhub_stream_rebuffering_ratio", "Share of watching time spent stalled over the last hour, by stream", ["stream"], async () =>
    (await qualityNow()).flatMap((stream) =>
      stream.rebufferingRatio === null ? [] : [reading({ stream: stream.streamId }, stream.rebufferingRatio)]
    )
  )
  gauge("streamhub_stream_errors", "Playback errors players reported over the last hour, by stream", ["stream"], async () =>
    (await qualityNow()).map((stream) => reading({ stream: stream.streamId }, stream.errors))
  )
  gauge("streamhub_mail_outbox", "Mails in the outbox, by status", ["status"], async () => {
    const rows = await db
      .selectFrom("outbox")
      .select((eb) => ["status", eb.fn.countAll<number>().as("count")])
      .groupBy("status")
      .execute()
    return (["pending", "sent", "failed"] as const).map((status) =>
      reading({ status }, Number(rows.find((row) => row.status === status)?.count ?? 0))
    )
  })
  gauge("streamhub_live_viewers", "Players watching each stream now", ["stream"], async () =>
    (await connections.liveCounts(db, now())).map(({ stream, viewers }) => reading({ stream }, viewers))
  )
  const feedStatuses = () => feeds.statuses(db, now())
  gauge(
    "streamhub_feed_up",
    "1 for each channel feed's current state (idle, starting, live, stalled, failed)",
    ["stream", "state"],
    async () => (await feedStatuses()).map((feed) => reading({ stream: String(feed.streamId), state: feed.state }, 1))
  )
  gauge("streamhub_feed_viewers", "Viewers of each channel feed, all instances together", ["stream"], async () =>
    (await feedStatuses()).map((feed) => reading({ stream: String(feed.streamId) }, feed.viewers))
  )
  gauge("streamhub_feed_bitrate_bits", "Bits a second each channel feed takes in", ["stream"], async () =>
    (await feedStatuses()).map((feed) => reading({ stream: String(feed.streamId) }, feed.bitrate))
  )

  // every answer passes here: a callback hook, without the promise an async one costs
  app.addHook("onResponse", (request, reply, done) => {
    // a request no route took is counted as such: its path is whatever the client made up
    const route = request.routeOptions.url ?? "unmatched"
    requests.inc({ route, method: request.method, status: String(reply.statusCode) })
    durations.observe({ route }, reply.elapsedTime / 1000)
    done()
  })
  app.get("/metrics", async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, options.token)) {
      return reply
        .code(401)
        .header("WWW-Authenticate", 'Bearer realm="metrics"')
        .send({ success: false, status: 401, detail: "The metrics need their token" })
    }
    return reply
      .header("Content-Type", register.contentType)
      .header("Cache-Control", "no-store")
      .send(await register.metrics())
  })
}
