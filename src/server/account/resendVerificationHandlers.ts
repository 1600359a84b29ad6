import { createHash, randomBytes } from "node:crypto"
import { type Kysely, sql } from "kysely"
import type { registrationContract } from "../../domain/contract/account.ts"
import { normaliseEmail } from "../../domain/Validation.ts"
import type { Tables } from "../db/schema.ts"
import { tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { mail } from "../mail/mailFeature.ts"
import { type AccountDeps, mailSite } from "./accountDeps.ts"
import { verificationMail } from "./accountMails.ts"
import { issueToken } from "./oneTimeTokens.ts"
import { findUserByEmail } from "./usersRepo.ts"

export const VERIFICATION_RESENT =
  "If this email address has an account that still needs verifying, we have sent it a new verification link."

/**
 * Verification mails one address may be sent within the window, from all networks together.
 * Counted for every address asked for, registered or not, verified or not, so the refusal that
 * follows tells nobody anything about the address.
 */
export const RESENDS_PER_ADDRESS = 3
export const RESEND_WINDOW_MS = 60 * 60 * 1000

export const resendsRefusal = (retryAfterSeconds: number) =>
  tooManyRequests(
    `Too many verification emails asked for this email address. Try again in ${waitText(retryAfterSeconds)}.`,
    retryAfterSeconds
  )

export type ResendVerificationHandlers = HandlersOf<Pick<typeof registrationContract, "resendVerification">>

const counterKey = (email: string): string => `resend-verification ${createHash("sha256").update(email, "utf8").digest("hex")}`

/** The account a request that mails nothing issues its token for, to be rolled back: asked on every request. */
async function standInUser(trx: Kysely<Tables>): Promise<number | undefined> {
  const row = await trx.selectFrom("users").select("id").orderBy("id").limit(1).executeTakeFirst()
  return row?.id
}

export function resendVerificationHandlers(deps: AccountDeps): ResendVerificationHandlers {
  const { db, now, mailWorker, counters } = deps
  return {
    // Whether the address has an account, and whether it is verified, the caller gets the same
    // answer after the same work, as a password reset request does: the token and the mail are
    // written either way, and rolled back to a savepoint when nobody is to be mailed.
    async resendVerification({ body }) {
      const email = normaliseEmail(body.email)
      const counted = await counters.add(counterKey(email), RESEND_WINDOW_MS)
      if (counted.count > RESENDS_PER_ADDRESS) throw resendsRefusal(Math.max(1, Math.ceil(counted.msLeft / 1000)))
      const at = new Date(now())
      const [site, user] = [await mailSite(deps), await findUserByEmail(db, email)]
      const recipient = user?.is_active === true && user.email_verified_at === null ? user : undefined
      await db.transaction().execute(async (trx) => {
        const tokenFor = recipient?.id ?? (await standInUser(trx))
        await sql`savepoint resend_verification`.execute(trx)
        const token =
          tokenFor === undefined
            ? randomBytes(32).toString("base64url")
            : await issueToken(trx, { purpose: "verify", userId: tokenFor, now: at })
        await mail.enqueue(trx, verificationMail({ ...site, to: email, token }), at)
        await sql
          .raw(recipient === undefined ? "rollback to savepoint resend_verification" : "release savepoint resend_verification")
          .execute(trx)
      })
      // after the answer has gone, so waking the sender adds nothing to its time
      if (recipient !== undefined) setImmediate(() => mailWorker.wake())
      return { success: true, detail: VERIFICATION_RESENT }
    }
  }
}
