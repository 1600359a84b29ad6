import type { EndpointName } from "../../domain/contract/api.ts"
import type { Command } from "../cli/command.ts"
import type { ContractOptions } from "../http/registerContract.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { accountHandlers } from "./accountHandlers.ts"
import type { AccountHousekeepingOptions, AccountPrune } from "./accountHousekeeping.ts"
import { startAccountHousekeeping } from "./accountHousekeeping.ts"
import { createAccountLimiter } from "./accountLimiter.ts"
import { accountRateLimits } from "./accountRateLimits.ts"
import { authHandlers } from "./authHandlers.ts"
import { seedStaff } from "./seedStaff.ts"
import { createSessionCache, sessionsEpoch, TELEMETRY_SESSION_MAX_AGE_MS } from "./sessionCache.ts"
import { resolveSession } from "./sessions.ts"
import { createSignUpLimiter } from "./signUpLimiter.ts"
import { userCreate, userDisable, userEnable, userList, userPassword } from "./userCommands.ts"

export interface AccountFeature extends ServerFeature {
  /** The live session `token` (the request's Token header, or a beacon's) names, if any. */
  readonly authenticate: ContractOptions["authenticate"]
}

export interface AccountFeatureOptions {
  /** Timing of the housekeeping job, which runs until the app closes. */
  readonly housekeeping?: Pick<AccountHousekeepingOptions, "everyMs" | "firstAfterMs">
}

/** Sign-in and sessions, sign-up with its verification, password reset and profile changes. */
export function accountFeature(deps: FeatureDeps, options: AccountFeatureOptions = {}): AccountFeature {
  const { db, now, limits, mailWorker, config, log, counters } = deps
  // One limiter: a wrong current password on the profile page counts like a failed sign-in.
  const accountLimiter = createAccountLimiter(limits, counters)
  const signUpLimiter = createSignUpLimiter(db, now, limits, counters)
  const housekeeping = startAccountHousekeeping({
    db,
    now,
    ...options.housekeeping,
    onPrune: (prune) => {
      if (Object.values(prune).some((count) => count > 0)) log.info({ prune }, describePrune(prune))
    },
    onError: (error) => log.warn({ err: error }, "account housekeeping failed; the next pass tries again")
  })
  const routeConfig = accountRateLimits(limits)
  const sessions = createSessionCache()
  return {
    handlers: {
      ...authHandlers({
        db,
        now,
        accountLimiter,
        counters,
        limits,
        mailWorker,
        publicUrl: config.publicUrl,
        log,
        sessionMaxDays: config.sessionMaxDays
      }),
      ...accountHandlers({ db, now, accountLimiter, signUpLimiter, counters, mailWorker, publicUrl: config.publicUrl })
    },
    routeConfig: (name: EndpointName) => routeConfig(name),
    jobs: [housekeeping],
    authenticate: (request, token, purpose) =>
      resolveSession(
        db,
        token,
        request.ip,
        now(),
        sessions,
        purpose === "telemetry" ? TELEMETRY_SESSION_MAX_AGE_MS : undefined,
        config.sessionMaxDays
      )
  }
}

export const accountCommands: ReadonlyArray<Command> = [userCreate, userList, userPassword, userDisable, userEnable]

/** The first start's staff account. */
export const accountSeed = { staff: seedStaff } as const

/** What other features may know of sessions: a number that changes whenever one ends or changes here. */
export const accountSessions = { epoch: sessionsEpoch } as const

function describePrune(prune: AccountPrune): string {
  return (
    `account housekeeping: removed ${prune.sessions} expired sessions, ${prune.tokens} old one-time tokens, ` +
    `${prune.mails} old mails and ${prune.resetRequests} reset requests; cleared ${prune.redactedMails} dead failed mails`
  )
}
