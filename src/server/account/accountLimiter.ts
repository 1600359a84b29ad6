import type { FastifyContextConfig } from "fastify"
import type { Counters } from "../http/counters.ts"
import { tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { RateLimits } from "../http/rateLimits.ts"

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

/**
 * What the account takes from a network now: passwords, or (strangers having spent its
 * wrong-password budget, and the network not one it signed in from lately) a right password only
 * as a request for a mailed sign-in link, for `msLeft` more.
 */
export type PasswordChecks = { readonly from: "any" } | { readonly from: "knownOnly"; readonly msLeft: number }

export interface AccountLimiter {
  /** Throws a 429 while the account refuses password checks from `network`. */
  check(email: string, network: string): Promise<PasswordChecks>
  /** Counts a wrong password; true when this one made the network refused for the account. */
  recordFailure(email: string, network: string): Promise<boolean>
  /** The right password: what that network got wrong no longer counts, and it is known to the account. */
  recordSuccess(email: string, network: string): Promise<void>
  /** Whether the account signed in from `network` lately. */
  isKnown(email: string, network: string): Promise<boolean>
}

// The third wrong password in a row from one network pauses that network's checks for the
// account a little, the fourth longer; at the limit it is refused until the window closes.
const SLOW_FROM_FAILURE = 3
const slowDownMs = (failures: number): number => (failures === SLOW_FROM_FAILURE ? 5_000 : 30_000)
// A network the account signed in from lately keeps working when the account as a whole has had
// too many wrong passwords from elsewhere.
const KNOWN_NETWORK_MS = 30 * 24 * 60 * 60 * 1000

/**
 * Counts failed password checks per account and client network (IPv4 address, IPv6 /64), so
 * guessing from one network is slowed and then refused without locking out the owner signing
 * in from another. Across all networks an account takes at most `failedSignInsPerAccountAnyNetwork`
 * wrong passwords in its window (ASVS 2.2.1); past that only networks it signed in from lately
 * are still heard. A successful sign-in clears its network's count, so the owner's own typos do
 * not add up to a pause over the day. The counters are shared by all instances on PostgreSQL.
 */
export function createAccountLimiter(limits: RateLimits, counters: Counters): AccountLimiter {
  const perNetwork = (email: string, network: string) => `signin-fail ${email} ${network}`
  const paused = (email: string, network: string) => `signin-slow ${email} ${network}`
  const anyNetwork = (email: string) => `signin-fail ${email}`
  const known = (email: string, network: string) => `signin-known ${email} ${network}`
  return {
    async check(email, network) {
      const [failures, pause, all] = await Promise.all([
        counters.read(perNetwork(email, network)),
        counters.read(paused(email, network)),
        counters.read(anyNetwork(email))
      ])
      if (failures.count >= limits.failedSignInsPerAccount) throw lockoutRefusal(seconds(failures.msLeft))
      if (pause.count > 0) throw lockoutRefusal(seconds(pause.msLeft))
      if (all.count >= limits.failedSignInsPerAccountAnyNetwork && (await counters.read(known(email, network))).count === 0) {
        return { from: "knownOnly", msLeft: all.msLeft }
      }
      return { from: "any" }
    },
    async recordFailure(email, network) {
      const [{ count }] = await Promise.all([
        counters.add(perNetwork(email, network), limits.failedSignInWindowMs),
        counters.add(anyNetwork(email), limits.failedSignInAnyNetworkWindowMs)
      ])
      if (count >= SLOW_FROM_FAILURE && count < limits.failedSignInsPerAccount) {
        await counters.reset(paused(email, network))
        await counters.add(paused(email, network), slowDownMs(count))
      }
      return count === limits.failedSignInsPerAccount
    },
    async recordSuccess(email, network) {
      await Promise.all([
        counters.reset(perNetwork(email, network)),
        counters.reset(paused(email, network)),
        counters.add(known(email, network), KNOWN_NETWORK_MS)
      ])
    },
    async isKnown(email, network) {
      return (await counters.read(known(email, network))).count > 0
    }
  }
}
