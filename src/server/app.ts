import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify"
import type { EndpointName } from "../domain/contract/api.ts"
import { openApiDocument } from "../domain/contract/openapi.ts"
import { type AccountFeatureOptions, accountFeature } from "./account/accountFeature.ts"
import { auditFeature } from "./audit/auditFeature.ts"
import type { Config } from "./config.ts"
import { connectionsFeature } from "./connections/connectionsFeature.ts"
import type { Db } from "./db/database.ts"
import { type GuideFeatureOptions, guideFeature } from "./guide/guideFeature.ts"
import { registerBodyParsers } from "./http/bodyParsers.ts"
import { registerCompression } from "./http/compression.ts"
import { CLIENT_TIMEOUTS, capConnectionsPerAddress, clientErrorReply, closeSilentConnections } from "./http/connectionLimits.ts"
import { memoryCounters, postgresCounters } from "./http/counters.ts"
import { frameworkErrorReply, registerErrorHandler } from "./http/errorHandler.ts"
import { DEFAULT_RATE_LIMITS, type RateLimits, registerApiRateLimit } from "./http/rateLimits.ts"
import { type Handlers, registerContract } from "./http/registerContract.ts"
import { originsOf, registerSecurityHeaders, securityHeaders } from "./http/securityHeaders.ts"
import type { FeatureDeps, MailWaker, ServerFeature } from "./http/serverFeature.ts"
import { registerStaticSite } from "./http/staticSite.ts"
import { invitesFeature } from "./invites/invitesFeature.ts"
import { operationsFeature } from "./operations/operationsFeature.ts"
import { originFeature } from "./origin/originFeature.ts"
import { paymentsFeature } from "./payments/paymentsFeature.ts"
import { type RemindersFeatureOptions, remindersFeature } from "./reminders/remindersFeature.ts"
import { reportsFeature } from "./reports/reportsFeature.ts"
import { shellFeature, siteNow } from "./shell/shellFeature.ts"
import { streams, streamsFeature } from "./streams/streamsFeature.ts"
import { supportFeature } from "./support/supportFeature.ts"
import { telemetryFeature } from "./telemetry/telemetryFeature.ts"

export interface BuildAppOptions {
  readonly config: Config
  /** Opened and migrated; the caller owns it and closes it after the app. */
  readonly db: Db
  /** Epoch ms; injectable so tests can move time (session expiry, live edge). */
  readonly now?: () => number
  readonly logger?: FastifyServerOptions["logger"]
  /** Over the defaults and the configured ones. */
  readonly limits?: Partial<RateLimits>
  /** Over `CLIENT_TIMEOUTS`, e.g. shorter for a test of a slow client. */
  readonly clientTimeouts?: Partial<Record<keyof typeof CLIENT_TIMEOUTS, number>>
  /** Largest request body in bytes. */
  readonly bodyLimit?: number
  /** The mail worker, nudged once a request's mail is committed; without it mail waits for its poll. */
  readonly mail?: MailWaker
  /** Timing of the account housekeeping job, which runs until the app closes. */
  readonly housekeeping?: AccountFeatureOptions["housekeeping"]
  /** Timing of the guide's refresh job (on start, then every 6 hours), which runs until the app closes. */
  readonly guideRefresh?: GuideFeatureOptions["refresh"]
  /** Timing of the reminder job (every 30 seconds), which runs until the app closes. */
  readonly reminders?: RemindersFeatureOptions["job"]
}

export const DEFAULT_BODY_LIMIT = 256 * 1024

/** The whole server, ready but not listening: `inject` into it or `listen` on it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options
  const replyToUnreadableUrl = frameworkErrorReply(securityHeaders(config.publicUrl))
  const timeouts = { ...CLIENT_TIMEOUTS, ...options.clientTimeouts }
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: trustedHops(config.trustProxy),
    requestTimeout: timeouts.requestTimeoutMs,
    // Node checks for overdue requests on this interval (30 s unless told), so a shorter timeout needs it shorter.
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs, 30_000) / 2
    },
    connectionTimeout: timeouts.idleTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    clientErrorHandler: clientErrorReply(securityHeaders(config.publicUrl)),
    // Players poll playlists every couple of seconds; per-request logs would drown real problems.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    frameworkErrors: (error, _request, reply) => replyToUnreadableUrl(error, reply)
  })
  if (config.connectionsPerAddress !== undefined) capConnectionsPerAddress(app.server, config.connectionsPerAddress)
  closeSilentConnections(app.server, timeouts.headersTimeoutMs)
  registerSecurityHeaders(app, config.publicUrl)
  await registerCompression(app)
  registerErrorHandler(app)
  registerBodyParsers(app)

  const now = options.now ?? Date.now
  const counters = db.dialect === "postgres" ? postgresCounters(db.kysely, now) : memoryCounters(now)
  const deps: FeatureDeps = {
    db: db.kysely,
    tableVersion: (table) => db.tableVersion(table),
    onQuery: (listener) => db.onQuery(listener),
    config,
    now,
    counters,
    limits: { ...DEFAULT_RATE_LIMITS, ...config.rateLimits, ...options.limits },
    mailWorker: options.mail ?? { wake: () => undefined },
    log: app.log
  }
  const features: Array<ServerFeature> = []
  const stopJobs = async () => {
    await Promise.all(features.flatMap((feature) => feature.jobs ?? []).map((job) => job.stop()))
    await counters.close()
  }
  try {
    // one at a time, so the jobs of those already built stop if a later one fails
    const account = accountFeature(deps, { housekeeping: options.housekeeping })
    features.push(account)
    // The list of features: each brings its contract handlers, its routes and its background jobs.
    // connections comes before origin: its playlist hook must see the routes the origin adds.
    const guide = (featureDeps: FeatureDeps) => guideFeature(featureDeps, { refresh: options.guideRefresh })
    const reminders = (featureDeps: FeatureDeps) => remindersFeature(featureDeps, { job: options.reminders })
    for (const feature of [
      shellFeature,
      invitesFeature,
      streamsFeature,
      guide,
      reminders,
      supportFeature,
      paymentsFeature,
      reportsFeature,
      telemetryFeature,
      connectionsFeature,
      originFeature,
      operationsFeature,
      auditFeature
    ]) {
      features.push(feature(deps))
    }
    app.addHook("onClose", async () => {
      await stopJobs()
    })
    for (const feature of features) await feature.routes?.(app)
    await app.register(async (scope) => {
      await registerApiRateLimit(scope, deps.limits, counters, now)
      for (const feature of features) await feature.limitedRoutes?.(scope)
      registerContract(scope, {
        handlers: mergeHandlers(features),
        authenticate: account.authenticate,
        routeConfig: (name: EndpointName) => features.map((feature) => feature.routeConfig?.(name)).find((config) => config !== undefined)
      })
      // written on its first request, not at every start
      let openApi: ReturnType<typeof openApiDocument> | undefined
      scope.get("/api/openapi.json", async () => {
        openApi ??= openApiDocument({ title: "StreamHub API", version: "1" })
        return openApi
      })
    })
    // last: the single-page app answers every other GET
    await registerStaticSite(app, config.staticDir, {
      mediaOrigins: async () => originsOf(await streams.mediaLocations(deps.db, deps.tableVersion)),
      site: () => siteNow(deps.db, deps.tableVersion)
    })
    await app.ready()
  } catch (error) {
    await stopJobs()
    throw error
  }
  return app
}

/**
 * Fastify's `trustProxy` from ours. A number of proxies becomes a function trusting that many hops
 * from the socket: the client is the address the outermost proxy appended, whatever the client
 * wrote further left. (Fastify's own number option trusts no one, as it cannot tell a proxy from
 * a client connecting directly: so a hop count suits a server only the proxies can reach.)
 */
function trustedHops(trust: Config["trustProxy"]): FastifyServerOptions["trustProxy"] {
  if (trust === false) return false
  if (typeof trust === "number") return (_address: string, hop: number) => hop < trust
  return [...trust]
}

/** Every feature's handlers as one table; two features answering one endpoint is a wiring mistake. */
function mergeHandlers(features: ReadonlyArray<ServerFeature>): Handlers {
  const merged: Record<string, unknown> = {}
  for (const feature of features) {
    for (const [name, handler] of Object.entries(feature.handlers ?? {})) {
      if (name in merged) throw new Error(`two features answer the endpoint ${name}`)
      merged[name] = handler
    }
  }
  return merged as Handlers
}
