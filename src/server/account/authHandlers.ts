import type { FastifyBaseLogger } from "fastify"
import type { Kysely } from "kysely"
import type { signInContract } from "../../domain/contract/account.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { normaliseEmail } from "../../domain/Validation.ts"
import type { Tables, UserRow } from "../db/schema.ts"
import { requestNetwork } from "../http/clientNetwork.ts"
import type { Counters } from "../http/counters.ts"
import { tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { RateLimits } from "../http/rateLimits.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import type { MailWaker } from "../http/serverFeature.ts"
import { invites } from "../invites/invitesFeature.ts"
import { mail } from "../mail/mailFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { mailSite } from "./accountDeps.ts"
import type { AccountLimiter } from "./accountLimiter.ts"
import { signInLinkMail, signInPausedMail } from "./accountMails.ts"
import { findPendingNewEmail } from "./oneTimeTokensRepo.ts"
import { verifyAgainstDummy, verifyPassword } from "./passwords.ts"
import { createSession } from "./sessions.ts"
import { deleteSessionByTokenHash, deleteSessionsOfUser } from "./sessionsRepo.ts"
import { consumeSignInLink, issueSignInLink, SIGN_IN_LINK_LIFETIME_MS, SIGN_IN_LINKS_PER_HOUR } from "./signInLinks.ts"
import { findUserByEmail, findUserById } from "./usersRepo.ts"

export const LOGIN_MISMATCH = "Email and password do not match"
export const LOGIN_NOT_VERIFIED = "Email not verified"
export const LOGIN_NOT_ACTIVE = "User not active"
export const SIGN_IN_LINK_INVALID = "This sign-in link is not valid. Sign in with your email and password."
export const SIGN_IN_LINK_USED = "This sign-in link has already been used. Sign in with your email and password."
export const SIGN_IN_LINK_EXPIRED = "This sign-in link has expired. Sign in with your email and password to be sent a new one."

/**
 * The answer to every password entered on a network the account does not know while strangers
 * have spent its wrong-password budget, right or wrong: the same words and the same time, so it
 * confirms no guess. Only the right password mails the owner a sign-in link.
 */
export const newNetworksPaused = (retryAfterSeconds: number) =>
  tooManyRequests(
    "Many wrong passwords were tried for this account from other networks, so for " +
      `${waitText(retryAfterSeconds)} it signs in new networks only by email. If the password you entered is right, ` +
      "we have sent you a sign-in link: follow it to sign in.",
    retryAfterSeconds
  )

export interface AuthDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly accountLimiter: AccountLimiter
  readonly counters: Counters
  readonly limits: Pick<RateLimits, "failedSignInWindowMs">
  readonly mailWorker: MailWaker
  readonly publicUrl: string
  readonly log: FastifyBaseLogger
  /** however often it is used, a session ends this many days after its sign-in */
  readonly sessionMaxDays?: number
}

const OWNER_MAIL_EVERY_MS = 60 * 60 * 1000

export type AuthHandlers = HandlersOf<typeof signInContract>

export function authHandlers({
  db,
  now,
  accountLimiter,
  counters,
  limits,
  mailWorker,
  publicUrl,
  log,
  sessionMaxDays
}: AuthDeps): AuthHandlers {
  /**
   * Mails the owner that a network was refused for their account, at most once an hour however
   * many networks try. Not awaited: the answer takes as long whether or not the account exists.
   */
  const tellOwner = async (to: string, network: string) => {
    try {
      if ((await counters.add(`sign-in-paused-mail ${to}`, OWNER_MAIL_EVERY_MS)).count > 1) return
      const site = await mailSite({ db, publicUrl })
      const minutes = Math.round(limits.failedSignInWindowMs / 60_000)
      await mail.enqueue(db, signInPausedMail({ ...site, to, network, minutes }), new Date(now()))
      mailWorker.wake()
    } catch (error) {
      log.warn({ err: error }, "could not queue the mail about paused sign-ins")
    }
  }
  /**
   * Mails a sign-in link to an account that can sign in, at most a few an hour. Not awaited: the
   * answer takes as long whether the password was right or not.
   */
  const mailSignInLink = async (user: UserRow) => {
    try {
      if (user.email_verified_at === null || !user.is_active) return
      if ((await counters.add(`sign-in-link-mail ${user.id}`, 60 * 60 * 1000)).count > SIGN_IN_LINKS_PER_HOUR) return
      const site = await mailSite({ db, publicUrl })
      const at = now()
      await db.transaction().execute(async (trx) => {
        const token = await issueSignInLink(trx, user.id, at)
        const minutes = Math.round(SIGN_IN_LINK_LIFETIME_MS / 60_000)
        await mail.enqueue(trx, signInLinkMail({ ...site, to: user.email, token, minutes }), new Date(at))
      })
      mailWorker.wake()
    } catch (error) {
      log.warn({ err: error }, "could not queue a sign-in link")
    }
  }
  const countFailure = async (email: string, network: string, user: UserRow | undefined) => {
    const refused = await accountLimiter.recordFailure(email, network)
    if (refused && user !== undefined) void tellOwner(user.email, network)
  }
  return {
    async login({ body, request }) {
      const email = normaliseEmail(body.email)
      // Refused before the password is looked at, so a locked account gives no oracle.
      const network = requestNetwork(request)
      const checks = await accountLimiter.check(email, network)
      const user = await findUserByEmail(db, email)
      const matches = user === undefined ? await verifyAgainstDummy(body.password) : await verifyPassword(body.password, user.password_hash)
      if (checks.from === "knownOnly") {
        // Nobody but the owner's mailbox gets in this way, and the answer is the same either way.
        if (user !== undefined && matches) void mailSignInLink(user)
        else void countFailure(email, network, user).catch((error: unknown) => log.warn({ err: error }, "could not count a failed sign-in"))
        throw newNetworksPaused(Math.max(1, Math.ceil(checks.msLeft / 1000)))
      }
      if (user === undefined || !matches) {
        await countFailure(email, network, user)
        return { success: false, resultCode: ResultCode.EMAIL_AND_PASSWORD_DO_NOT_MATCH, detail: LOGIN_MISMATCH }
      }
      await accountLimiter.recordSuccess(email, network)
      // Only after the password matched: these answers would otherwise reveal that the account exists.
      if (user.email_verified_at === null) {
        return { success: false, resultCode: ResultCode.EMAIL_NOT_VERIFIED, detail: LOGIN_NOT_VERIFIED }
      }
      if (!user.is_active) return { success: false, resultCode: ResultCode.USER_NOT_ACTIVE, detail: LOGIN_NOT_ACTIVE }
      const token = await createSession(
        db,
        user.id,
        {
          isMobile: body.isMobile ?? false,
          userAgent: request.headers["user-agent"],
          ip: request.ip
        },
        now(),
        sessionMaxDays
      )
      return { success: true, resultCode: ResultCode.SUCCESS, token }
    },

    async signInWithLink({ body, request }) {
      const at = now()
      const check = await consumeSignInLink(db, body.token, at)
      switch (check.status) {
        case "not-found":
          return { success: false, resultCode: ResultCode.INVALID_TOKEN, detail: SIGN_IN_LINK_INVALID }
        case "used":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_ALREADY_COMPLETED, detail: SIGN_IN_LINK_USED }
        case "expired":
          return { success: false, resultCode: ResultCode.EMAIL_TOKEN_EXPIRED, detail: SIGN_IN_LINK_EXPIRED }
      }
      const user = await findUserById(db, check.userId)
      if (user === undefined) return { success: false, resultCode: ResultCode.INVALID_TOKEN, detail: SIGN_IN_LINK_INVALID }
      if (!user.is_active) return { success: false, resultCode: ResultCode.USER_NOT_ACTIVE, detail: LOGIN_NOT_ACTIVE }
      // the network the link is followed from is the owner's: it is heard from now on
      await accountLimiter.recordSuccess(user.email, requestNetwork(request))
      const device = { isMobile: body.isMobile ?? false, userAgent: request.headers["user-agent"], ip: request.ip }
      const token = await createSession(db, user.id, device, at, sessionMaxDays)
      return { success: true, resultCode: ResultCode.SUCCESS, token }
    },

    async logout({ session }) {
      await deleteSessionByTokenHash(db, session.tokenHash)
      return { success: true }
    },

    async logoutAll({ session }) {
      await deleteSessionsOfUser(db, session.userId)
      return { success: true }
    },

    async isAuthenticated({ session }) {
      return { success: session !== undefined }
    },

    async userInfo({ session, body }) {
      const [points, settings, pendingEmail] = await Promise.all([
        invites.rewardBalance(db, session.userId),
        siteSettings.read(db),
        findPendingNewEmail(db, session.userId, new Date(now()).toISOString())
      ])
      if (body.isMobile !== undefined) {
        await db.updateTable("sessions").set({ is_mobile: body.isMobile }).where("id", "=", session.sessionId).execute()
      }
      return {
        success: true,
        data: {
          email: session.email,
          username: session.username,
          is_staff: session.isStaff,
          userRewardPoints: points,
          pricePerRewardPoint: settings.pricePerRewardPoint,
          ...(pendingEmail === undefined ? {} : { pendingEmail })
        }
      }
    }
  }
}
