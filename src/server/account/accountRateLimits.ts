import type { FastifyContextConfig } from "fastify"
import type { EndpointName } from "../../domain/api.ts"
import { perMinute, type RateLimits } from "../http/rateLimits.ts"
import { signInLimit } from "./accountLimiter.ts"

/** Per-IP requests per minute on the account endpoints that anyone may call. */
export interface AccountRateLimits {
  readonly registerPerMinute: number
  readonly passwordResetRequestsPerMinute: number
  /** Each of the endpoints that take a mailed token. */
  readonly tokenChecksPerMinute: number
}

// Tight: a person signs up or asks for a reset once or twice; anything more from one address is a
// script creating accounts, flooding someone's mailbox, or guessing tokens.
export const DEFAULT_ACCOUNT_RATE_LIMITS: AccountRateLimits = {
  registerPerMinute: 5,
  passwordResetRequestsPerMinute: 5,
  tokenChecksPerMinute: 10
}

const TOKEN_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  "verifyEmail", "verifyPasswordReset", "resetPassword", "confirmEmailChange"
])

/**
 * Route config for the stricter per-IP limits of sign-in and the account endpoints, for
 * `registerContract`'s `routeConfig`; undefined for every other endpoint. Needs the API
 * rate-limit plugin in scope.
 */
export function accountRateLimits(
  limits: Pick<RateLimits, "signInPerMinute">,
  overrides: Partial<AccountRateLimits> = {}
): (name: EndpointName) => FastifyContextConfig | undefined {
  const { registerPerMinute, passwordResetRequestsPerMinute, tokenChecksPerMinute } = { ...DEFAULT_ACCOUNT_RATE_LIMITS, ...overrides }
  const login = signInLimit(limits)
  const register = perMinute(registerPerMinute, "sign-up attempts")
  const reset = perMinute(passwordResetRequestsPerMinute, "password reset requests")
  return (name) => {
    if (name === "login") return login
    if (name === "register") return register
    if (name === "createPasswordReset") return reset
    // Each route keeps its own count, so checking a link and then submitting its form share no budget.
    return TOKEN_ENDPOINTS.has(name) ? perMinute(tokenChecksPerMinute, "attempts") : undefined
  }
}
