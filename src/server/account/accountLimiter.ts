import type { FastifyContextConfig } from "fastify"
import { tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { RateLimits } from "../http/rateLimits.ts"
import { createWindowCounter } from "../http/windowCounter.ts"

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

/** Sign-in attempts per minute from one address: the route config of `login`. */
export const signInLimit = (limits: Pick<RateLimits, "signInPerMinute">): FastifyContextConfig => ({
  rateLimit: {
    max: limits.signInPerMinute,
    timeWindow: MINUTE,
    errorResponseBuilder: (_request, context) => signInRefusal(seconds(context.ttl))
  }
})

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
