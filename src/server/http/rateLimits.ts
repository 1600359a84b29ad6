import fastifyRateLimit from "@fastify/rate-limit"
import type { FastifyContextConfig, FastifyInstance } from "fastify"
import { requestNetwork } from "./clientNetwork.ts"
import type { Counters } from "./counters.ts"
import { tooManyRequests } from "./HttpFailure.ts"

export interface RateLimits {
  /** Requests per minute per IP across the whole API: generous, it only stops floods. */
  readonly apiPerMinute: number
  /** Sign-in attempts per minute per IP. */
  readonly signInPerMinute: number
  /** Failed sign-ins per account from one network within the window before that network is refused. */
  readonly failedSignInsPerAccount: number
  readonly failedSignInWindowMs: number
  /** Failed sign-ins per account from all networks together, past which only known networks are heard. */
  readonly failedSignInsPerAccountAnyNetwork: number
  readonly failedSignInAnyNetworkWindowMs: number
  /** Accounts created through one invite link within the sign-up window. */
  readonly signUpsPerInvite: number
  /** Sign-up attempts for one email address within the sign-up window, whatever their outcome. */
  readonly signUpAttemptsPerEmail: number
  readonly signUpWindowMs: number
}

// An invite link is passed on by hand to a few friends; ten new accounts within an hour means it
// was posted somewhere public. Five tries for one address cover typos in the password fields.
export const DEFAULT_RATE_LIMITS: RateLimits = {
  apiPerMinute: 600,
  signInPerMinute: 10,
  failedSignInsPerAccount: 5,
  failedSignInWindowMs: 15 * 60 * 1000,
  failedSignInsPerAccountAnyNetwork: 100,
  failedSignInAnyNetworkWindowMs: 60 * 60 * 1000,
  signUpsPerInvite: 10,
  signUpAttemptsPerEmail: 5,
  signUpWindowMs: 60 * 60 * 1000
}

const MINUTE = 60 * 1000
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

type StoreResult = (error: Error | null, result?: { current: number; ttl: number }) => void

/**
 * `@fastify/rate-limit`'s store over our counters, so every instance on one PostgreSQL counts
 * together. The API-wide limit counts with `addSoon` (no query per request); a route's stricter
 * limit counts each request in the database, and once an address is refused here the refusal is
 * answered from memory until its window closes, so a flood from a blocked address costs no query.
 */
function counterStore(counters: Counters, now: () => number) {
  return class CounterStore {
    readonly #prefix: string
    readonly #blocked = new Map<string, number>()
    constructor(_options?: unknown, prefix = "api ") {
      this.#prefix = prefix
    }
    incr(key: string, callback: StoreResult, timeWindow: number, max: number): void {
      const counted = `${this.#prefix}${key}`
      if (this.#prefix === "api ") {
        const { count, msLeft } = counters.addSoon(counted, timeWindow)
        callback(null, { current: count, ttl: msLeft })
        return
      }
      const at = now()
      const blockedUntil = this.#blocked.get(counted)
      if (blockedUntil !== undefined && blockedUntil > at) {
        callback(null, { current: max + 1, ttl: blockedUntil - at })
        return
      }
      counters.add(counted, timeWindow).then(
        ({ count, msLeft }) => {
          if (count > max) {
            if (this.#blocked.size >= 10_000) this.#blocked.clear()
            this.#blocked.set(counted, at + msLeft)
          }
          callback(null, { current: count, ttl: msLeft })
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)))
      )
    }
    child(routeOptions: unknown): CounterStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo
      return new CounterStore(undefined, `${String(route?.method)} ${String(route?.url)} `)
    }
  }
}

/**
 * Puts every route registered later in `scope` under the per-network API limit; features give
 * their own endpoints stricter ones through route config. Call inside the API's own plugin scope.
 */
export async function registerApiRateLimit(
  scope: FastifyInstance,
  limits: RateLimits,
  counters: Counters,
  now: () => number
): Promise<void> {
  await scope.register(fastifyRateLimit, {
    global: true,
    max: limits.apiPerMinute,
    timeWindow: MINUTE,
    store: counterStore(counters, now),
    keyGenerator: requestNetwork,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Too many requests. Try again in ${seconds(context.ttl)} seconds.`, seconds(context.ttl))
  })
}

/** A stricter per-IP limit for one route, saying `what` was refused and for how long. */
export const perMinute = (max: number, what: string): FastifyContextConfig => ({
  rateLimit: {
    max,
    timeWindow: MINUTE,
    errorResponseBuilder: (_request, context) => {
      const wait = seconds(context.ttl)
      return tooManyRequests(`Too many ${what} from your network. Try again in ${wait} seconds.`, wait)
    }
  }
})
