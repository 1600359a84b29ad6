import type { registrationContract } from "../../domain/contract/account.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { normaliseEmail } from "../../domain/Validation.ts"
import { isUniqueViolation } from "../db/database.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { invites } from "../invites/invitesFeature.ts"
import { mail } from "../mail/mailFeature.ts"
import { type AccountDeps, mailSite } from "./accountDeps.ts"
import { verificationMail } from "./accountMails.ts"
import { completeVerification } from "./completeVerification.ts"
import { consumeToken, issueToken } from "./oneTimeTokens.ts"
import { hashPassword } from "./passwords.ts"
import { findUserByEmail, insertUser } from "./usersRepo.ts"

// The registration page tests this exact detail to offer "Go to login page" (SPEC §2).
export const EMAIL_ALREADY_REGISTERED = "EMAIL_ALREADY_REGISTERED"
export const registeredDetail = (email: string) =>
  `Account created. We sent an email to ${email}: follow the link in it to finish signing up.`

export const EMAIL_VERIFIED = "Email verified. You can sign in now."
export const EMAIL_WAS_VERIFIED = "Your email address is already verified. You can sign in."
export const VERIFY_TOKEN_NOT_FOUND = "This verification link is not valid. Check that you opened the whole link from the email."
export const VERIFY_TOKEN_USED = "This verification link has already been used. You can sign in."
export const VERIFY_TOKEN_EXPIRED =
  "This verification link has expired. Use Forgot password on the sign-in page: the reset link also verifies your email."

export type RegistrationHandlers = HandlersOf<Omit<typeof registrationContract, "resendVerification">>

const emailTaken = { success: false, resultCode: ResultCode.EMAIL_ALREADY_REGISTERED, detail: EMAIL_ALREADY_REGISTERED } as const

export function registrationHandlers(deps: AccountDeps): RegistrationHandlers {
  const { db, now, mailWorker, signUpLimiter } = deps
  return {
    async register({ body }) {
      // The page checks the invite before showing the form; checking it first here too keeps the
      // answers in the order the visitor meets them.
      const inviter = await invites.inviterOf(db, body.invitationToken)
      if (inviter === undefined) return invites.refusal(body.invitationToken)
      const email = normaliseEmail(body.email)
      await signUpLimiter.admit(inviter.id, email)
      if ((await findUserByEmail(db, email)) !== undefined) return emailTaken

      // Hashing is slow on purpose; done before the transaction so no lock is held meanwhile.
      const passwordHash = await hashPassword(body.password)
      const [site, at] = [await mailSite(deps), new Date(now())]
      try {
        await db.transaction().execute(async (trx) => {
          const user = await insertUser(trx, {
            username: body.username.trim(),
            email,
            password_hash: passwordHash,
            invite_token: invites.newCode(),
            email_verified_at: null,
            created_at: at.toISOString()
          })
          await invites.recordSignUp(trx, {
            inviter_id: inviter.id,
            new_user_id: user.id,
            new_user_email: email,
            created_at: at.toISOString()
          })
          const token = await issueToken(trx, { purpose: "verify", userId: user.id, now: at })
          await mail.enqueue(trx, verificationMail({ ...site, to: email, token }), at)
        })
      } catch (error) {
        // Two sign-ups with one address at once: the unique index lets one through.
        if (isUniqueViolation(error) && (await findUserByEmail(db, email)) !== undefined) return emailTaken
        throw error
      }
      mailWorker.wake()
      return { success: true, resultCode: ResultCode.SUCCESS, detail: registeredDetail(email) }
    },

    async verifyEmail({ body }) {
      const at = new Date(now())
      const outcome = await db.transaction().execute(async (trx) => {
        const check = await consumeToken(trx, "verify", body.token, at)
        if (check.status !== "valid") return check.status
        return (await completeVerification(trx, check.token.user_id, at.toISOString())) ? "verified" : "was-verified"
      })
      switch (outcome) {
        case "verified":
          return { success: true, resultCode: ResultCode.SUCCESS, detail: EMAIL_VERIFIED }
        // A password reset verifies too, so the original link may come second; the account is
        // verified either way, which is what the person following it wants to hear.
        case "was-verified":
          return { success: true, resultCode: ResultCode.SUCCESS, detail: EMAIL_WAS_VERIFIED }
        case "not-found":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_NOT_FOUND, detail: VERIFY_TOKEN_NOT_FOUND }
        case "used":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_ALREADY_COMPLETED, detail: VERIFY_TOKEN_USED }
        case "expired":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_EXPIRED, detail: VERIFY_TOKEN_EXPIRED }
      }
    }
  }
}
