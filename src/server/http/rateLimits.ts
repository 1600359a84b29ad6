import fastifyRateLimit from "@fastify/rate-limit"
import type { FastifyContextConfig, FastifyInstance } from "fastify"
import type { EndpointName } from "../../domain/api.ts"
import { tooManyRequests, waitText } from "./HttpFailure.ts"
import { createWindowCounter } from "./windowCounter.ts"

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

export const signInRefusal = (retryAfterSeconds: number) =>
  tooManyRequests(`Too many sign-in attempts. Try again in ${retryAfterSeconds} seconds.`, retryAfterSeconds)

/** Says what happened (the account's password was got wrong too often), for how long, and the way out. */
export const lockoutRefusal = (retryAfterSeconds: number) =>
  tooManyRequests(
    `Too many wrong passwords for this account, so password checks are paused for ${waitText(retryAfterSeconds)}. ` +
      "Try again then, or use Forgot password on the sign-in page.",
    retryAfterSeconds
  )

/**
 * Puts every route registered later in `scope` under the per-IP API limit, and answers the
 * route config for the stricter sign-in limit. Call inside the API's own plugin scope.
 */
export async function registerApiRateLimit(scope: FastifyInstance, limits: RateLimits) {
  await scope.register(fastifyRateLimit, {
    global: true,
    max: limits.apiPerMinute,
    timeWindow: MINUTE,
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Too many requests. Try again in ${seconds(context.ttl)} seconds.`, seconds(context.ttl))
  })
  return (name: EndpointName): FastifyContextConfig | undefined =>
    name === "login"
      ? {
          rateLimit: {
            max: limits.signInPerMinute,
            timeWindow: MINUTE,
            errorResponseBuilder: (_request, context) => signInRefusal(seconds(context.ttl))
          }
        }
      : undefined
}

export interface AccountLimiter {
  /** Throws a 429 once the account has used up its failed attempts. */
  check(email: string): void
  recordFailure(email: string): void
  /** The right password: whatever failed before no longer counts against the account. */
  recordSuccess(email: string): void
}

/**
 * Counts failed sign-ins per account, whatever IP they come from, so a password cannot be
 * guessed slowly from many addresses. A successful sign-in clears the count, so the owner's own
 * typos do not add up to a lockout over the day.
 */
export function createAccountLimiter(limits: RateLimits, now: () => number): AccountLimiter {
  const failures = createWindowCounter({ max: limits.failedSignInsPerAccount, windowMs: limits.failedSignInWindowMs, now })
  return {
    check(email) {
      const wait = failures.blockedFor(email)
      if (wait > 0) throw lockoutRefusal(seconds(wait))
    },
    recordFailure(email) {
      failures.hit(email)
    },
    recordSuccess(email) {
      failures.reset(email)
    }
  }
}
