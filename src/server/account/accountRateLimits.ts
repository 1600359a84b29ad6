import type { FastifyContextConfig } from "fastify"
import type { EndpointName } from "../../domain/contract/api.ts"
import { perMinute, type RateLimits } from "../http/rateLimits.ts"
import { signInLimit } from "./accountLimiter.ts"

/** Per-IP requests per minute on the account endpoints that anyone may call, or that send mail. */
export interface AccountRateLimits {
  readonly registerPerMinute: number
  readonly passwordResetRequestsPerMinute: number
  /** Requests to mail a verification link again. */
  readonly verificationResendsPerMinute: number
  /** Each of the endpoints that take a mailed token. */
  readonly tokenChecksPerMinute: number
  /** Account detail changes: each new email address is mailed a confirmation. */
  readonly accountChangesPerMinute: number
}

// Tight: a person signs up or asks for a reset once or twice; anything more from one address is a
// script creating accounts, flooding someone's mailbox, or guessing tokens.
export const DEFAULT_ACCOUNT_RATE_LIMITS: AccountRateLimits = {
  registerPerMinute: 5,
  passwordResetRequestsPerMinute: 5,
  verificationResendsPerMinute: 5,
  tokenChecksPerMinute: 10,
  // a wrong password already counts against the account (accountLimiter); this keeps one session
  // from having the server mail one address after another
  accountChangesPerMinute: 5
}

const TOKEN_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  "verifyEmail",
  "verifyPasswordReset",
  "resetPassword",
  "confirmEmailChange",
  "signInWithLink"
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
  const { registerPerMinute, passwordResetRequestsPerMinute, verificationResendsPerMinute, tokenChecksPerMinute, accountChangesPerMinute } =
    {
      ...DEFAULT_ACCOUNT_RATE_LIMITS,
      ...overrides
    }
  const login = signInLimit(limits)
  const register = perMinute(registerPerMinute, "sign-up attempts")
  const reset = perMinute(passwordResetRequestsPerMinute, "password reset requests")
  const resend = perMinute(verificationResendsPerMinute, "verification email requests")
  const accountChanges = perMinute(accountChangesPerMinute, "account changes")
  return (name) => {
    if (name === "login") return login
    if (name === "register") return register
    if (name === "createPasswordReset") return reset
    if (name === "resendVerification") return resend
    if (name === "updateUsernameAndEmail") return accountChanges
    // Each route keeps its own count, so checking a link and then submitting its form share no budget.
    return TOKEN_ENDPOINTS.has(name) ? perMinute(tokenChecksPerMinute, "attempts") : undefined
  }
}
