import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { Counters } from "../http/counters.ts"
import { tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { RateLimits } from "../http/rateLimits.ts"
import { invites } from "../invites/invitesFeature.ts"

export type SignUpLimits = Pick<RateLimits, "signUpsPerInvite" | "signUpAttemptsPerEmail" | "signUpWindowMs">

export interface SignUpLimiter {
  /**
   * Throws a 429 when the invite link or the address has had its share of the window; otherwise
   * counts the attempt against the address. Call once the invite code is known to be good.
   */
  admit(inviterId: number, email: string): Promise<void>
}

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

/**
 * Per-account limits of sign-up, on top of the per-IP one. Sign-ups per invite are counted from
 * the invitations table, so they hold across restarts; attempts per address in the shared counters.
 */
export function createSignUpLimiter(db: Kysely<Tables>, now: () => number, limits: SignUpLimits, counters: Counters): SignUpLimiter {
  const attempts = (email: string) => `signup ${email}`
  return {
    async admit(inviterId, email) {
      const at = now()
      const since = new Date(at - limits.signUpWindowMs).toISOString()
      const { count, earliest } = await invites.signUpsThrough(db, inviterId, since)
      if (count >= limits.signUpsPerInvite) {
        const wait = seconds(Date.parse(earliest ?? new Date(at).toISOString()) + limits.signUpWindowMs - at)
        throw tooManyRequests(
          `Too many accounts were created with this invite link recently. Try again in ${waitText(wait)}, or ask for another invite link.`,
          wait
        )
      }
      const tried = await counters.read(attempts(email))
      if (tried.count >= limits.signUpAttemptsPerEmail) {
        const wait = seconds(tried.msLeft)
        throw tooManyRequests(`Too many sign-up attempts for this email address. Try again in ${waitText(wait)}.`, wait)
      }
      await counters.add(attempts(email), limits.signUpWindowMs)
    }
  }
}
