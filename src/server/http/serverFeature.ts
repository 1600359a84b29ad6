import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance } from "fastify"
import type { Kysely } from "kysely"
import type { EndpointName } from "../../domain/contract/api.ts"
import type { Config } from "../config.ts"
import type { Db } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import type { Counters } from "./counters.ts"
import type { RateLimits } from "./rateLimits.ts"
import type { Handlers } from "./registerContract.ts"

/** The part of the mail worker a request needs: a nudge once its mail is committed. */
export interface MailWaker {
  wake(): void
}

/** What every feature of the server is built from. */
export interface FeatureDeps {
  readonly db: Kysely<Tables>
  /** Moves with every change to a table, from any process: what may be kept in memory until it does. */
  readonly tableVersion: Db["tableVersion"]
  /** Each statement's time, for whoever listens (the metrics). */
  readonly onQuery: Db["onQuery"]
  readonly config: Config
  /** Epoch ms; injectable so tests can move time. */
  readonly now: () => number
  readonly limits: RateLimits
  /** Rate-limit and lockout counters, shared by all instances on one PostgreSQL. */
  readonly counters: Counters
  readonly mailWorker: MailWaker
  readonly log: FastifyBaseLogger
}

/** Work a feature keeps doing in the background until the app closes. */
export interface Job {
  stop(): Promise<void>
}

/** One feature as `app.ts` lists it. */
export interface ServerFeature {
  /** Handlers of the feature's contract entries. */
  readonly handlers?: Handlers
  /** Per-endpoint route config, e.g. a stricter rate limit. */
  readonly routeConfig?: (name: EndpointName) => FastifyContextConfig | undefined
  /** Routes and hooks beyond the API contract, on the root instance. */
  readonly routes?: (app: FastifyInstance) => Promise<void>
  /** Routes beyond the API contract that count toward the API's per-network limit (public feeds and the like). */
  readonly limitedRoutes?: (scope: FastifyInstance) => Promise<void>
  readonly jobs?: ReadonlyArray<Job>
}
