import type { Kysely } from "kysely"
import type { Tables, TokenPurpose } from "../db/schema.ts"
import { startPeriodicJob } from "../http/periodicJob.ts"
import { mail } from "../mail/mailFeature.ts"
import { TOKEN_LIFETIME_MS } from "./oneTimeTokens.ts"
import { deleteExpiredOneTimeTokens } from "./oneTimeTokensRepo.ts"
import { RESET_REQUEST_WINDOW_MS } from "./passwordResetHandlers.ts"
import { deletePasswordResetRequestsBefore } from "./passwordResetRequestsRepo.ts"
import { deleteExpiredSessions } from "./sessionsRepo.ts"
import { deleteExpiredSignInLinks, SIGN_IN_LINK_LIFETIME_MS } from "./signInLinks.ts"

const MINUTE = 60 * 1000
const DAY = 24 * 60 * MINUTE

/** How long an expired link still answers "expired" (or "used") before it becomes "not found". */
export const EXPIRED_TOKEN_GRACE_MS = 7 * DAY
/** How long delivered and abandoned mails stay listed for operators (`mail:list`). */
export const FINISHED_MAIL_RETENTION_MS = 30 * DAY

export interface AccountPrune {
  readonly sessions: number
  readonly tokens: number
  readonly redactedMails: number
  readonly mails: number
  readonly resetRequests: number
}

const TOKEN_MAIL_KINDS = Object.keys(TOKEN_LIFETIME_MS) as TokenPurpose[]

/** One housekeeping pass over the account tables as of `now` (epoch ms). */
export async function pruneAccounts(db: Kysely<Tables>, now: number): Promise<AccountPrune> {
  const before = (ms: number) => new Date(now - ms).toISOString()
  const sessions = await deleteExpiredSessions(db, before(0))
  const tokens =
    (await deleteExpiredOneTimeTokens(db, before(EXPIRED_TOKEN_GRACE_MS))) +
    (await deleteExpiredSignInLinks(db, before(EXPIRED_TOKEN_GRACE_MS)))
  let redactedMails = 0
  // A failed mail's link is dead once its token's lifetime is over; a retry could only deliver that.
  for (const kind of TOKEN_MAIL_KINDS) redactedMails += await mail.redactFailed(db, kind, before(TOKEN_LIFETIME_MS[kind]))
  redactedMails += await mail.redactFailed(db, "sign-in-link", before(SIGN_IN_LINK_LIFETIME_MS))
  const mails = await mail.deleteFinished(db, before(FINISHED_MAIL_RETENTION_MS))
  const resetRequests = await deletePasswordResetRequestsBefore(db, before(RESET_REQUEST_WINDOW_MS))
  return { sessions, tokens, redactedMails, mails, resetRequests }
}

export interface AccountHousekeeping {
  /** Runs a pass now (or joins the one running) and answers what it removed. */
  runNow(): Promise<AccountPrune | undefined>
  /** No further passes; waits for one in progress. */
  stop(): Promise<void>
}

export interface AccountHousekeepingOptions {
  readonly db: Kysely<Tables>
  /** Epoch ms. */
  readonly now: () => number
  readonly everyMs?: number
  /** Delay of the first pass after start, so start-up and the first requests go first. */
  readonly firstAfterMs?: number
  readonly onPrune?: (prune: AccountPrune) => void
  readonly onError?: (error: unknown) => void
}

/**
 * Removes what the account flows leave behind: expired sessions, long-expired one-time tokens,
 * old sent and failed mails. Nothing here is urgent (expired rows are already refused), so an
 * hourly timer does; it never keeps the process alive, and a failed pass waits for the next one.
 */
export function startAccountHousekeeping(options: AccountHousekeepingOptions): AccountHousekeeping {
  return startPeriodicJob(() => pruneAccounts(options.db, options.now()), {
    everyMs: options.everyMs ?? 60 * MINUTE,
    firstAfterMs: options.firstAfterMs ?? MINUTE,
    onDone: options.onPrune,
    onError: options.onError,
    lease: { db: options.db, name: "account-housekeeping", now: options.now }
  })
}
