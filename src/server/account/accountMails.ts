import { type Mail, type MailSite, mail } from "../mail/mailFeature.ts"
import { TOKEN_LIFETIME_MS } from "./oneTimeTokens.ts"

// The mails of the account flows: each link's lifetime is the lifetime of the token it carries.

interface TokenMailInput extends MailSite {
  to: string
  /** The raw token from `issueToken`. */
  token: string
}

export function verificationMail(input: TokenMailInput): Mail {
  return mail.compose(input, "verify", `Confirm your email address for ${input.siteName}`, [
    `Thanks for signing up for ${input.siteName}. Confirm your email address to finish creating your account:`,
    { link: mail.tokenLink(input.publicUrl, "/verify", input.token), label: "Confirm email address" },
    `This link is valid for ${lifetime("verify")}. If you did not sign up, you can ignore this email.`
  ])
}

export function passwordResetMail(input: TokenMailInput): Mail {
  return mail.compose(input, "reset", `Reset your ${input.siteName} password`, [
    `Someone asked to reset the password of your ${input.siteName} account. Choose a new password here:`,
    { link: mail.tokenLink(input.publicUrl, "/password-reset-confirmation", input.token), label: "Choose a new password" },
    `This link is valid for ${lifetime("reset")} and works once. If you did not ask for this, ignore ` +
      "this email: your password stays as it is."
  ])
}

/** Goes to the NEW address: following the link proves the user can read mail there. */
export function emailChangeConfirmationMail(input: TokenMailInput): Mail {
  return mail.compose(input, "email-change", `Confirm your new email address for ${input.siteName}`, [
    `You asked to use this address for your ${input.siteName} account. Confirm it here:`,
    { link: mail.tokenLink(input.publicUrl, "/confirm-email-change", input.token), label: "Confirm new address" },
    `This link is valid for ${lifetime("email-change")}. Until you confirm, your account keeps its ` +
      "current address. If you did not ask for this, ignore this email."
  ])
}

/**
 * Goes to the OLD address, without a link: if someone else got into the account, its owner hears
 * of it at the address they still control. The new address is partly masked because the old
 * mailbox may no longer be the owner's.
 */
export function emailChangeNoticeMail(input: MailSite & { to: string; newEmail: string }): Mail {
  return mail.compose(input, "email-change-notice", `Your ${input.siteName} email address is being changed`, [
    `Someone asked to change the email address of your ${input.siteName} account to ` +
      `${maskEmail(input.newEmail)}. The change takes effect only once it is confirmed from the new address.`,
    "If this was you, there is nothing to do here. If it was not, change your password now and " + "contact support."
  ])
}

/**
 * Goes to the owner when a network got the account's password wrong so often that it is refused
 * for a while: someone may be guessing it. No link, so it cannot be mistaken for phishing.
 */
export function signInPausedMail(input: MailSite & { to: string; network: string; minutes: number }): Mail {
  return mail.compose(input, "sign-in-paused", `Sign-in attempts to your ${input.siteName} account were paused`, [
    `The password of your ${input.siteName} account was entered wrongly several times from the network ` +
      `${input.network}, so password checks from there are paused for ${input.minutes} minutes. Signing in ` +
      "from your usual networks still works.",
    "If this was you, wait or use Forgot password on the sign-in page. If it was not, someone may be " +
      "trying to guess your password: make sure it is long and not used anywhere else."
  ])
}

/**
 * Goes to the owner who entered the right password on a new network while new networks are not
 * heard for the account (strangers got its password wrong too often): following it signs in.
 */
export function signInLinkMail(input: TokenMailInput & { minutes: number }): Mail {
  return mail.compose(input, "sign-in-link", `Your ${input.siteName} sign-in link`, [
    `Someone, hopefully you, entered the right password for your ${input.siteName} account on a new ` +
      "network. Many wrong passwords were tried for your account from other networks lately, so new " +
      "networks sign in through this link instead:",
    { link: mail.tokenLink(input.publicUrl, "/sign-in-link", input.token), label: "Sign in" },
    `The link works once, within ${input.minutes} minutes. If it was not you who signed in, the person ` +
      "knows your password: change it on your profile page, or use Forgot password on the sign-in page."
  ])
}

function lifetime(purpose: keyof typeof TOKEN_LIFETIME_MS): string {
  const hours = Math.round(TOKEN_LIFETIME_MS[purpose] / 3_600_000)
  return hours === 1 ? "1 hour" : `${hours} hours`
}

/** `someone@example.com` → `s*****e@example.com`: recognisable to its owner, not a full address. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf("@")
  if (at < 1) return "an address you gave"
  const local = email.slice(0, at)
  const masked = local.length <= 2 ? `${local[0]}*` : `${local[0]}${"*".repeat(local.length - 2)}${local.at(-1)}`
  return `${masked}${email.slice(at)}`
}
