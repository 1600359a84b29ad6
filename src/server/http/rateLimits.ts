import fastifyRateLimit from "@fastify/rate-limit"
import type { FastifyContextConfig, FastifyInstance } from "fastify"
import { tooManyRequests } from "./HttpFailure.ts"

export interface RateLimits {
  /** Requests per minute per IP across the whole API: generous, it only stops floods. */
  readonly apiPerMinute: number
  /** Sign-in attempts per minute per IP. */
  readonly signInPerMinute: number
  /** Failed sign-ins per account within the window before further attempts are refused. */
  readonly failedSignInsPerAccount: number
  readonly failedSignInWindowMs: number
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
  signUpsPerInvite: 10,
  signUpAttemptsPerEmail: 5,
  signUpWindowMs: 60 * 60 * 1000
}

const MINUTE = 60 * 1000
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

/**
 * Puts every route registered later in `scope` under the per-IP API limit; features give their
 * own endpoints stricter ones through route config. Call inside the API's own plugin scope.
 */
export async function registerApiRateLimit(scope: FastifyInstance, limits: RateLimits): Promise<void> {
  await scope.register(fastifyRateLimit, {
    global: true,
    max: limits.apiPerMinute,
    timeWindow: MINUTE,
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
