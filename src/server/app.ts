import { existsSync } from "node:fs"
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify"
import type { EndpointName } from "../domain/api.ts"
import { openApiDocument } from "../domain/openapi.ts"
import type { MailWaker } from "./account/accountDeps.ts"
import { type AccountHousekeepingOptions, type AccountPrune, startAccountHousekeeping } from "./account/accountHousekeeping.ts"
import { accountHandlers } from "./account/accountHandlers.ts"
import { accountRateLimits } from "./account/accountRateLimits.ts"
import { createSignUpLimiter } from "./account/signUpLimiter.ts"
import { authHandlers } from "./account/authHandlers.ts"
import { resolveSession } from "./account/sessions.ts"
import type { Config } from "./config.ts"
import type { Db } from "./db/database.ts"
import { DEMO_CHANNELS } from "./streams/demoChannels.ts"
import { contentHandlers } from "./shell/shellHandlers.ts"
import { ticketHandlers } from "./support/ticketHandlers.ts"
import { registerBodyParsers } from "./http/bodyParsers.ts"
import { frameworkErrorReply, registerErrorHandler } from "./http/errorHandler.ts"
import { registerPosterRoutes } from "./streams/posterRoutes.ts"
import { createAccountLimiter, DEFAULT_RATE_LIMITS, type RateLimits, registerApiRateLimit } from "./http/rateLimits.ts"
import { registerContract } from "./http/registerContract.ts"
import { originsOf, registerSecurityHeaders, securityHeaders } from "./http/securityHeaders.ts"
import { registerStaticSite } from "./http/staticSite.ts"
import { listStreams } from "./streams/streamsRepo.ts"
import { registerOrigin } from "./origin/originRoutes.ts"
import { registerTelemetry } from "./telemetry/registerTelemetry.ts"

export interface BuildAppOptions {
  readonly config: Config
  /** Opened and migrated; the caller owns it and closes it after the app. */
  readonly db: Db
  /** Epoch ms; injectable so tests can move time (session expiry, live edge). */
  readonly now?: () => number
  readonly logger?: FastifyServerOptions["logger"]
  /** Over the defaults and the configured ones. */
  readonly limits?: Partial<RateLimits>
  /** Largest request body in bytes. */
  readonly bodyLimit?: number
  /** The mail worker, nudged once a request's mail is committed; without it mail waits for its poll. */
  readonly mail?: MailWaker
  /** Timing of the account housekeeping job, which runs until the app closes. */
  readonly housekeeping?: Pick<AccountHousekeepingOptions, "everyMs" | "firstAfterMs">
}

export const DEFAULT_BODY_LIMIT = 256 * 1024

/** The whole server, ready but not listening: `inject` into it or `listen` on it. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options
  const now = options.now ?? Date.now
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...config.rateLimits, ...options.limits }
  const replyToUnreadableUrl = frameworkErrorReply(securityHeaders(config.publicUrl))
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // Players poll playlists every couple of seconds; per-request logs would drown real problems.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    frameworkErrors: (error, _request, reply) => replyToUnreadableUrl(error, reply)
  })

  registerSecurityHeaders(app, config.publicUrl)
  registerErrorHandler(app)
  registerBodyParsers(app)
  // On the root instance, so its playlist hook also sees the origin's routes.
  const telemetry = registerTelemetry(app, { db: db.kysely, now })

  await app.register(async (scope) => {
    const apiRouteConfig = await registerApiRateLimit(scope, limits)
    const accountRouteConfig = accountRateLimits()
    const routeConfig = (name: EndpointName) => apiRouteConfig(name) ?? accountRouteConfig(name)
    const kysely = db.kysely
    // One limiter: a wrong current password on the profile page counts like a failed sign-in.
    const accountLimiter = createAccountLimiter(limits, now)
    const signUpLimiter = createSignUpLimiter(kysely, now, limits)
    const mail = options.mail ?? { wake: () => undefined }
    registerContract(scope, {
      handlers: {
        ...authHandlers({ db: kysely, now, accountLimiter }),
        ...accountHandlers({ db: kysely, now, accountLimiter, signUpLimiter, mail, publicUrl: config.publicUrl }),
        ...contentHandlers(kysely, now),
        ...ticketHandlers(kysely, now),
        ...telemetry
      },
      authenticate: (request) => resolveSession(kysely, request.headers.token as string | undefined, request.ip, now()),
      routeConfig
    })
    const openApi = openApiDocument({ title: "StreamHub API", version: "1" })
    scope.get("/api/openapi.json", async () => openApi)
  })

  if (existsSync(config.mediaDir)) {
    await app.register(async (scope) => registerOrigin(scope, { mediaDir: config.mediaDir, now }))
  } else {
    app.log.warn(`no demo media at ${config.mediaDir}: the /live origin is off`)
  }
  registerPosterRoutes(app, DEMO_CHANNELS)
  await registerStaticSite(app, config.staticDir, async () =>
    originsOf((await listStreams(db.kysely)).flatMap((stream) => [stream.src, stream.src_sldp, stream.image_location])))

  const housekeeping = startAccountHousekeeping({
    db: db.kysely,
    now,
    ...options.housekeeping,
    onPrune: (prune) => {
      if (Object.values(prune).some((count) => count > 0)) app.log.info({ prune }, describePrune(prune))
    },
    onError: (error) => app.log.warn({ err: error }, "account housekeeping failed; the next pass tries again")
  })
  app.addHook("onClose", () => housekeeping.stop())
  try {
    await app.ready()
  } catch (error) {
    await housekeeping.stop()
    throw error
  }
  return app
}

function describePrune(prune: AccountPrune): string {
  return `account housekeeping: removed ${prune.sessions} expired sessions, ${prune.tokens} old one-time tokens, ` +
    `${prune.mails} old mails and ${prune.resetRequests} reset requests; cleared ${prune.redactedMails} dead failed mails`
}
