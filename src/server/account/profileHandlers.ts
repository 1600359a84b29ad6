import type { FastifyRequest } from "fastify"
import type { profileContract } from "../../domain/contract/account.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { normaliseEmail } from "../../domain/Validation.ts"
import { isUniqueViolation } from "../db/database.ts"
import type { UserRow } from "../db/schema.ts"
import { requestNetwork } from "../http/clientNetwork.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import type { Session } from "../http/session.ts"
import { mail } from "../mail/mailFeature.ts"
import { type AccountDeps, mailSite } from "./accountDeps.ts"
import { lockoutRefusal } from "./accountLimiter.ts"
import { emailChangeConfirmationMail, emailChangeNoticeMail } from "./accountMails.ts"
import { setEmail, setUsername } from "./accountsRepo.ts"
import { consumeToken, issueToken, revokeTokens } from "./oneTimeTokens.ts"
import { hashPassword, verifyPassword } from "./passwords.ts"
import { deleteSessionsOfUser, deleteSessionsOfUserExcept } from "./sessionsRepo.ts"
import { findUserByEmail, findUserById, updatePasswordHash } from "./usersRepo.ts"

export const INCORRECT_PASSWORD = "Incorrect password"
export const PASSWORD_UPDATED = "Password has been updated"
export const EMAIL_IN_USE = "That email address is already registered to another account."
export const NOTHING_TO_UPDATE = "Nothing to update: the username and email are as they were."
export const EMAIL_CHANGE_TOKEN_NOT_FOUND =
  "This email confirmation link is not valid. Check that you opened the whole link from the email."
export const EMAIL_CHANGE_TOKEN_USED = "This email confirmation link has already been used."
export const EMAIL_CHANGE_TOKEN_EXPIRED = "This email confirmation link has expired. Change the email again from your account settings."
export const emailChangedDetail = (email: string) => `Your email address has been updated. Use ${email} to sign in from now on.`

export type ProfileHandlers = HandlersOf<typeof profileContract>

export function profileHandlers(deps: AccountDeps): ProfileHandlers {
  const { db, now, mailWorker, accountLimiter } = deps

  /** The signed-in account, if `password` is its password. Misses count toward the lockout. */
  const confirmedUser = async (session: Session, password: string, request: FastifyRequest): Promise<UserRow | undefined> => {
    const network = requestNetwork(request)
    // while new networks are not heard for the account, a signed-in session on one is not either
    const checks = await accountLimiter.check(session.email, network)
    if (checks.from === "knownOnly") throw lockoutRefusal(Math.max(1, Math.ceil(checks.msLeft / 1000)))
    const user = await findUserById(db, session.userId)
    if (user !== undefined && (await verifyPassword(password, user.password_hash))) {
      await accountLimiter.recordSuccess(session.email, network)
      return user
    }
    await accountLimiter.recordFailure(session.email, network)
    return undefined
  }

  return {
    async updatePassword({ body, session, request }) {
      const user = await confirmedUser(session, body.currentPassword, request)
      if (user === undefined) {
        return { success: false, resultCode: ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH, detail: INCORRECT_PASSWORD }
      }
      const passwordHash = await hashPassword(body.newPassword)
      await db.transaction().execute(async (trx) => {
        await updatePasswordHash(trx, user.id, passwordHash)
        // Every other device signs in again with the new password; this one stays signed in.
        await deleteSessionsOfUser(trx, user.id, session.tokenHash)
        // A reset link still lying in a mailbox would undo the change.
        await revokeTokens(trx, user.id, "reset")
      })
      return { success: true, resultCode: ResultCode.SUCCESS, detail: PASSWORD_UPDATED }
    },

    async updateUsernameAndEmail({ body, session, request }) {
      const unchanged = { emailUpdatePending: false, usernameUpdated: false }
      const user = await confirmedUser(session, body.password, request)
      if (user === undefined) {
        return { success: false, resultCode: ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH, ...unchanged, detail: INCORRECT_PASSWORD }
      }
      const username = body.username.trim()
      const email = normaliseEmail(body.email)
      const usernameUpdated = username !== user.username
      const emailUpdatePending = email !== user.email
      // Checked before anything changes, so a refusal leaves the account exactly as it was.
      if (emailUpdatePending && (await findUserByEmail(db, email)) !== undefined) {
        return { success: false, resultCode: ResultCode.EMAIL_ALREADY_REGISTERED, ...unchanged, detail: EMAIL_IN_USE }
      }
      const site = await mailSite(deps)
      const at = new Date(now())
      await db.transaction().execute(async (trx) => {
        if (usernameUpdated) await setUsername(trx, user.id, username)
        if (!emailUpdatePending) {
          // Submitting the current address again withdraws a change still waiting for confirmation.
          await revokeTokens(trx, user.id, "email-change")
          return
        }
        // The address changes only once the new mailbox confirms; until then the old one stays.
        const token = await issueToken(trx, {
          purpose: "email-change",
          userId: user.id,
          newEmail: email,
          sessionId: session.sessionId,
          now: at
        })
        await mail.enqueue(trx, emailChangeConfirmationMail({ ...site, to: email, token }), at)
        await mail.enqueue(trx, emailChangeNoticeMail({ ...site, to: user.email, newEmail: email }), at)
      })
      if (emailUpdatePending) mailWorker.wake()
      const detail = updateDetail(usernameUpdated, emailUpdatePending ? email : undefined)
      return { success: true, resultCode: ResultCode.SUCCESS, emailUpdatePending, usernameUpdated, detail }
    },

    async confirmEmailChange({ body, session }) {
      const at = new Date(now())
      const outcome = await db
        .transaction()
        .execute(async (trx) => {
          const check = await consumeToken(trx, "email-change", body.email_token, at)
          if (check.status !== "valid") return { status: check.status }
          const newEmail = check.token.new_email
          if (newEmail === null) return { status: "not-found" as const }
          const holder = await findUserByEmail(trx, newEmail)
          if (holder !== undefined && holder.id !== check.token.user_id) return { status: "taken" as const }
          await setEmail(trx, check.token.user_id, newEmail)
          // A reset link mailed to the old address would otherwise still hand over the account.
          await revokeTokens(trx, check.token.user_id, "reset")
          // Every other device signs in again with the new address: the session the change was
          // asked from stays, and so does the one confirming it when it is the same account's.
          const keep = [check.token.session_id, session?.userId === check.token.user_id ? session.sessionId : null]
          await deleteSessionsOfUserExcept(
            trx,
            check.token.user_id,
            keep.filter((id): id is number => id !== null)
          )
          return { status: "changed" as const, email: newEmail }
        })
        .catch((error: unknown) => {
          // Taken between the check and the update by a concurrent sign-up or change.
          if (isUniqueViolation(error)) return { status: "taken" as const }
          throw error
        })
      switch (outcome.status) {
        case "changed":
          return { success: true, resultCode: ResultCode.SUCCESS, email: outcome.email, detail: emailChangedDetail(outcome.email) }
        case "taken":
          return { success: false, resultCode: ResultCode.EMAIL_ALREADY_REGISTERED, detail: EMAIL_IN_USE }
        case "not-found":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_NOT_FOUND, detail: EMAIL_CHANGE_TOKEN_NOT_FOUND }
        case "used":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_ALREADY_COMPLETED, detail: EMAIL_CHANGE_TOKEN_USED }
        case "expired":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_EXPIRED, detail: EMAIL_CHANGE_TOKEN_EXPIRED }
      }
    }
  }
}

function updateDetail(usernameUpdated: boolean, pendingEmail: string | undefined): string {
  if (!usernameUpdated && pendingEmail === undefined) return NOTHING_TO_UPDATE
  return [
    usernameUpdated ? "Username updated." : "",
    pendingEmail === undefined ? "" : `We sent a confirmation link to ${pendingEmail}; your email changes once you follow it.`
  ]
    .filter((part) => part !== "")
    .join(" ")
}
