import type { FastifyContextConfig } from "fastify"
import type { EndpointName } from "../../domain/api.ts"
import { tooManyRequests } from "../http/HttpFailure.ts"

/** Per-IP requests per minute on the account endpoints that anyone may call. */
export interface AccountRateLimits {
  readonly registerPerMinute: number
  readonly passwordResetRequestsPerMinute: number
  /** Each of the endpoints that take a mailed token or an invite code. */
  readonly tokenChecksPerMinute: number
}

// Tight: a person signs up or asks for a reset once or twice; anything more from one address is a
// script creating accounts, flooding someone's mailbox, or guessing tokens.
export const DEFAULT_ACCOUNT_RATE_LIMITS: AccountRateLimits = {
  registerPerMinute: 5,
  passwordResetRequestsPerMinute: 5,
  tokenChecksPerMinute: 10
}

const MINUTE = 60 * 1000
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000))

const TOKEN_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  "invitation", "verifyEmail", "verifyPasswordReset", "resetPassword", "confirmEmailChange"
])

const limit = (max: number, what: string): FastifyContextConfig => ({
  rateLimit: {
    max,
    timeWindow: MINUTE,
    errorResponseBuilder: (_request, context) => {
      const wait = seconds(context.ttl)
      return tooManyRequests(`Too many ${what} from your network. Try again in ${wait} seconds.`, wait)
    }
  }
})

/**
 * Route config for the stricter per-IP limits of the account endpoints, for `registerContract`'s
 * `routeConfig`; undefined for every other endpoint. Needs the API rate-limit plugin in scope.
 */
export function accountRateLimits(limits: Partial<AccountRateLimits> = {}): (name: EndpointName) => FastifyContextConfig | undefined {
  const { registerPerMinute, passwordResetRequestsPerMinute, tokenChecksPerMinute } = { ...DEFAULT_ACCOUNT_RATE_LIMITS, ...limits }
  const register = limit(registerPerMinute, "sign-up attempts")
  const reset = limit(passwordResetRequestsPerMinute, "password reset requests")
  return (name) => {
    if (name === "register") return register
    if (name === "createPasswordReset") return reset
    // Each route keeps its own count, so checking a link and then submitting its form share no budget.
    return TOKEN_ENDPOINTS.has(name) ? limit(tokenChecksPerMinute, "attempts") : undefined
  }
}
