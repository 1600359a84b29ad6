import { createHash, randomBytes } from "node:crypto"
import { type Kysely, sql } from "kysely"
import type { passwordResetContract } from "../../domain/contract/account.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { normaliseEmail } from "../../domain/Validation.ts"
import type { Tables } from "../db/schema.ts"
import { requestNetwork } from "../http/clientNetwork.ts"
import { tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { mail } from "../mail/mailFeature.ts"
import { type AccountDeps, mailSite } from "./accountDeps.ts"
import { passwordResetMail } from "./accountMails.ts"
import { completeVerification } from "./completeVerification.ts"
import { checkToken, consumeToken, issueToken, revokeTokens, type TokenCheck } from "./oneTimeTokens.ts"
import { deletePasswordResetRequestsBefore, passwordResetRequestsSince, recordPasswordResetRequest } from "./passwordResetRequestsRepo.ts"
import { hashPassword } from "./passwords.ts"
import { deleteSessionsOfUser } from "./sessionsRepo.ts"
import { findUserByEmail, findUserById, updatePasswordHash } from "./usersRepo.ts"

export const RESET_REQUESTED = "If the email is registered, reset instructions will be sent."
export const RESET_TOKEN_VALID = "This password reset link is valid."
export const PASSWORD_RESET = "Password has been updated. You can sign in with your new password."
export const RESET_TOKEN_INVALID = "This password reset link is not valid. Request a new one from the Forgot password page."
export const RESET_TOKEN_EXPIRED = "This password reset link has expired. Request a new one from the Forgot password page."
export const RESET_TOKEN_USED = "This password reset link has already been used. Request a new one from the Forgot password page."

/**
 * Reset requests per address and client network within the window. Counted for every address
 * asked for, registered or not, so the 429 that follows tells nobody whether the address has an
 * account; counted per network, so requests from strangers' networks never refuse the owner's.
 */
export const RESET_REQUESTS_PER_ADDRESS = 3
export const RESET_REQUEST_WINDOW_MS = 60 * 60 * 1000
/**
 * Reset mails one address gets within the window from all networks together: past this, requests
 * from networks the account has not signed in from lately are answered alike but mail nothing, so
 * nobody fills a mailbox from many networks; the account's own networks are still mailed.
 */
export const RESET_MAILS_PER_ADDRESS = 10

export const resetRequestsRefusal = (retryAfterSeconds: number) =>
  tooManyRequests(
    `Too many password reset requests for this email address. Try again in ${waitText(retryAfterSeconds)}.`,
    retryAfterSeconds
  )

export type PasswordResetHandlers = HandlersOf<typeof passwordResetContract>

type Refusal = { success: false; resultCode: number; detail: string }

function refusal(status: Exclude<TokenCheck["status"], "valid">): Refusal {
  switch (status) {
    case "not-found":
      return { success: false, resultCode: ResultCode.INVALID_TOKEN, detail: RESET_TOKEN_INVALID }
    case "expired":
      return { success: false, resultCode: ResultCode.EXPIRED, detail: RESET_TOKEN_EXPIRED }
    case "used":
      return { success: false, resultCode: ResultCode.COMPLETED, detail: RESET_TOKEN_USED }
  }
}

const addressHash = (email: string): string => createHash("sha256").update(email, "utf8").digest("hex")

// Ids start at 1 on both dialects.
const NO_USER = 0

/** What `issueToken` does, less the insert its foreign key would refuse: a fresh token and the same delete. */
async function discardedToken(trx: Kysely<Tables>): Promise<string> {
  await revokeTokens(trx, NO_USER, "reset")
  return randomBytes(32).toString("base64url")
}

/**
 * The account a request that mails nothing issues its token for, to be rolled back: the first
 * one. Asked on every request, mailed or not, so both do the same reads.
 */
async function standInUser(trx: Kysely<Tables>): Promise<number | undefined> {
  const row = await trx.selectFrom("users").select("id").orderBy("id").limit(1).executeTakeFirst()
  return row?.id
}

export function passwordResetHandlers(deps: AccountDeps): PasswordResetHandlers {
  const { db, now, mailWorker } = deps
  return {
    // Registered or not, the caller gets the same answer after the same work: the same reads and
    // writes in one committed transaction. For an address that gets no mail, the token's and the
    // mail's rows are rolled back to a savepoint before the commit, so nothing is ever sent.
    async createPasswordReset({ body, request }) {
      const email = normaliseEmail(body.email)
      const network = requestNetwork(request)
      const at = new Date(now())
      const since = new Date(at.getTime() - RESET_REQUEST_WINDOW_MS).toISOString()
      const [site, user, known] = [
        await mailSite(deps),
        await findUserByEmail(db, email),
        await deps.accountLimiter.isKnown(email, network)
      ]
      const outcome = await db.transaction().execute(async (trx) => {
        const earlier = await passwordResetRequestsSince(trx, addressHash(email), since, network)
        const fromAll = await passwordResetRequestsSince(trx, addressHash(email), since)
        await deletePasswordResetRequestsBefore(trx, since)
        // A refused request is not recorded: the address may ask again once its earliest counted
        // request leaves the window, however often it was refused meanwhile.
        if (earlier.count >= RESET_REQUESTS_PER_ADDRESS) {
          const until = Date.parse(earlier.earliest ?? at.toISOString()) + RESET_REQUEST_WINDOW_MS
          return { refused: true, waitMs: until - at.getTime() } as const
        }
        await recordPasswordResetRequest(trx, addressHash(email), network, at.toISOString())
        const mailable = known || fromAll.count < RESET_MAILS_PER_ADDRESS
        const recipient = user?.is_active === true && mailable ? user : undefined
        const standIn = await standInUser(trx)
        await sql`savepoint reset_mail`.execute(trx)
        // the same statements whether or not a mail goes out; only the end of the savepoint differs
        const tokenFor = recipient?.id ?? standIn
        const token =
          tokenFor === undefined ? await discardedToken(trx) : await issueToken(trx, { purpose: "reset", userId: tokenFor, now: at })
        await mail.enqueue(trx, passwordResetMail({ ...site, to: email, token }), at)
        await sql.raw(recipient === undefined ? "rollback to savepoint reset_mail" : "release savepoint reset_mail").execute(trx)
        return { refused: false, queued: recipient !== undefined } as const
      })
      if (outcome.refused) throw resetRequestsRefusal(Math.max(1, Math.ceil(outcome.waitMs / 1000)))
      // after the answer has gone, so waking the sender adds nothing to its time
      if (outcome.queued) setImmediate(() => mailWorker.wake())
      return { success: true, detail: RESET_REQUESTED }
    },

    async verifyPasswordReset({ body }) {
      const check = await checkToken(db, "reset", body.token, new Date(now()))
      if (check.status !== "valid") return refusal(check.status)
      const user = await findUserById(db, check.token.user_id)
      if (user === undefined) return refusal("not-found")
      return { success: true, resultCode: ResultCode.SUCCESS, email: user.email, detail: RESET_TOKEN_VALID }
    },

    async resetPassword({ body }) {
      const at = new Date(now())
      // Look before hashing: a dead link should not cost a slow hash, and the hash must not be
      // computed inside the transaction, where it would hold the database for its duration.
      const precheck = await checkToken(db, "reset", body.token, at)
      if (precheck.status !== "valid") return refusal(precheck.status)
      const passwordHash = await hashPassword(body.newPassword)
      const outcome = await db.transaction().execute(async (trx) => {
        const check = await consumeToken(trx, "reset", body.token, at)
        if (check.status !== "valid") return check.status
        const userId = check.token.user_id
        await updatePasswordHash(trx, userId, passwordHash)
        // Whoever else was signed in, possibly the reason for the reset, is out now.
        await deleteSessionsOfUser(trx, userId)
        // An email change started from a session that is now ended is not to be trusted.
        await revokeTokens(trx, userId, "email-change")
        // The link came to the account's address, which proves it as well as the verification link.
        await completeVerification(trx, userId, at.toISOString())
        return "reset" as const
      })
      return outcome === "reset" ? { success: true, resultCode: ResultCode.SUCCESS, detail: PASSWORD_RESET } : refusal(outcome)
    }
  }
}
