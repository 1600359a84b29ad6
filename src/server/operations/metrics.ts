/**
 * `/metrics`: Prometheus text, for the operator's monitoring, behind a token of its own
 * (METRICS_TOKEN; without one the path does not exist). The process (CPU, memory, event loop,
 * handles), HTTP requests by route and status with their durations, and, read when scraped: the
 * mail outbox, players watching each stream, and each feed's state, viewers and bitrate.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { FastifyInstance } from "fastify"
import type { Kysely } from "kysely"
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client"
import { connections } from "../connections/connectionsFeature.ts"
import type { Tables } from "../db/schema.ts"
import { feeds } from "../feeds/feedsFeature.ts"

const digest = (text: string): Buffer => createHash("sha256").update(text).digest()

/** Whether a request's `Authorization: Bearer …` is the token, compared in constant time. */
export const bearerMatches = (header: string | undefined, token: string): boolean => {
  const given = /^Bearer (.+)$/i.exec(header ?? "")?.[1]
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}

export function registerMetrics(app: FastifyInstance, options: { db: Kysely<Tables>; token: string; now: () => number }): void {
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
  new Gauge({
    name: "streamhub_mail_outbox",
    help: "Mails in the outbox, by status",
    labelNames: ["status"] as const,
    registers: [register],
    async collect() {
      const rows = await db
        .selectFrom("outbox")
        .select((eb) => ["status", eb.fn.countAll<number>().as("count")])
        .groupBy("status")
        .execute()
      this.reset()
      for (const status of ["pending", "sent", "failed"] as const) {
        this.set({ status }, Number(rows.find((row) => row.status === status)?.count ?? 0))
      }
    }
  })
  new Gauge({
    name: "streamhub_live_viewers",
    help: "Players watching each stream now",
    labelNames: ["stream"] as const,
    registers: [register],
    async collect() {
      const counts = await connections.liveCounts(db, now())
      this.reset()
      for (const { stream, viewers } of counts) this.set({ stream }, viewers)
    }
  })
  const feedStatuses = () => feeds.statuses(db, now())
  new Gauge({
    name: "streamhub_feed_up",
    help: "1 for each channel feed's current state (idle, starting, live, stalled, failed)",
    labelNames: ["stream", "state"] as const,
    registers: [register],
    async collect() {
      const statuses = await feedStatuses()
      this.reset()
      for (const feed of statuses) this.set({ stream: String(feed.streamId), state: feed.state }, 1)
    }
  })
  new Gauge({
    name: "streamhub_feed_viewers",
    help: "Viewers of each channel feed, all instances together",
    labelNames: ["stream"] as const,
    registers: [register],
    async collect() {
      const statuses = await feedStatuses()
      this.reset()
      for (const feed of statuses) this.set({ stream: String(feed.streamId) }, feed.viewers)
    }
  })
  new Gauge({
    name: "streamhub_feed_bitrate_bits",
    help: "Bits a second each channel feed takes in",
    labelNames: ["stream"] as const,
    registers: [register],
    async collect() {
      const statuses = await feedStatuses()
      this.reset()
      for (const feed of statuses) this.set({ stream: String(feed.streamId) }, feed.bitrate)
    }
  })

  app.addHook("onResponse", async (request, reply) => {
    // a request no route took is counted as such: its path is whatever the client made up
    const route = request.routeOptions.url ?? "unmatched"
    requests.inc({ route, method: request.method, status: String(reply.statusCode) })
    durations.observe({ route }, reply.elapsedTime / 1000)
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
