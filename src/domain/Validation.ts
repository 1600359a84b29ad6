import * as Schema from "effect/Schema"
import { firstIssueWith } from "./decode.ts"

// "Text" has no white space, '@' or control characters (C0, DEL, C1): a NUL or an escape code in
// an address is never a typo worth keeping, and would end up in mail headers and logs.
const EMAIL_TEXT = String.raw`[^\s@\u0000-\u001f\u007f-\u009f]+`
// The part before the '@' is printable ASCII: a non-ASCII one (dana.émile@…) needs SMTPUTF8 all the
// way to the mailbox, which mail servers commonly refuse, so no mail of ours would ever arrive.
const EMAIL_LOCAL_TEXT = "[!-?A-~]+"
/** The loose pattern of SPEC §5: text, '@', text, '.', text; the text before the '@' in ASCII. */
export const EMAIL_PATTERN = new RegExp(`^${EMAIL_LOCAL_TEXT}@${EMAIL_TEXT}\\.${EMAIL_TEXT}$`)

export const PASSWORD_MIN_LENGTH = 8
/** The server refuses longer ones; the forms stop there too, so nobody meets a bare "Please try again." */
export const PASSWORD_MAX_LENGTH = 1024
export const USERNAME_MAX_LENGTH = 150

export const EMAIL_MESSAGE = "Enter a valid email address."
// SPEC §5: the invite page's validator has this variant without the final period, and its result is unused.
export const EMAIL_MESSAGE_INVITE_PAGE = "Enter a valid email address"
export const USERNAME_MESSAGE = "Please enter a username."
export const PASSWORD_MESSAGE = "Password length too short"
export const PASSWORD_MISMATCH_MESSAGE = "Passwords do not match"
// not in SPEC: the limits are ours, so are their messages
export const USERNAME_TOO_LONG_MESSAGE = `Username is too long. Use at most ${USERNAME_MAX_LENGTH} characters.`
export const PASSWORD_TOO_LONG_MESSAGE = `Password is too long. Use at most ${PASSWORD_MAX_LENGTH.toLocaleString("en-US")} characters.`

/** The longest address mail can carry (RFC 5321: a 256-octet path less its angle brackets). */
export const EMAIL_MAX_LENGTH = 254

// An internationalised domain (bücher.de) is delivered as its ASCII form (xn--bcher-kva.de), the
// form every mail server takes. Accounts store that form too (normaliseEmail makes it), so what is
// stored is exactly what is mailed, and either spelling of a domain finds the same account.
// The URL parser does the IDNA mapping (UTS #46) alike in browsers and Node, with no library.
// (control characters never get this far: the pattern has refused them)
const PRINTABLE_ASCII = /^[ -~]*$/

/** `domain` as mail carries it: ASCII ones as they are, others in punycode; undefined if it is no host name. */
const asciiDomain = (domain: string): string | undefined => {
  if (PRINTABLE_ASCII.test(domain)) return domain
  try {
    const url = new URL(`http://${domain}/`)
    // anything but a bare host name (a port, a path) is no domain of a mail address
    return url.href === `http://${url.hostname}/` ? url.hostname : undefined
  } catch {
    return undefined
  }
}

/**
 * The address as mail carries it, its domain in ASCII; undefined for one no mail server would
 * take (not the SPEC §5 shape, text before the '@' outside ASCII, too long once in ASCII).
 */
export const deliverableEmail = (value: string): string | undefined => {
  if (!EMAIL_PATTERN.test(value)) return undefined
  const at = value.lastIndexOf("@")
  const domain = asciiDomain(value.slice(at + 1))
  const address = domain === undefined ? undefined : `${value.slice(0, at)}@${domain}`
  return address !== undefined && address.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(address) ? address : undefined
}

const isEmailShape = (value: string): boolean => value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value)

export const isEmail = (value: string): boolean => isEmailShape(value) && deliverableEmail(value) !== undefined

/**
 * Emails are lower-cased (and trimmed) before they are sent or stored, and an internationalised
 * domain becomes its ASCII form (see `asciiDomain`); one that cannot stays lower-cased as it is.
 */
export const normaliseEmail = (value: string): string => {
  const lower = value.trim().toLowerCase()
  return deliverableEmail(lower) ?? lower
}

/** A form rule: undefined when valid, otherwise the exact message to show. */
export type Rule = (value: string) => string | undefined

/** The address as typed, less the spaces around it: what is sent once lower-cased. */
export const emailRule: Rule = (value) => checkEmail(value.trim())
/** The username is sent trimmed, so its length is counted without the spaces around it. */
export const usernameRule: Rule = (value) => checkUsername(value.trim())
export const passwordRule: Rule = (value) => checkPassword(value)
/** A password that only has to be there (the current one, to confirm it is you), yet no longer than any password can be. */
export const passwordLengthRule: Rule = (value) => checkPasswordText(value)
export const confirmationRule =
  (password: string): Rule =>
  (value) =>
    value === password ? undefined : PASSWORD_MISMATCH_MESSAGE

/** The username derived from an email: the part before the @. */
export const usernameFromEmail = (email: string): string => email.trim().split("@")[0] ?? ""

export const Email = Schema.String.check(
  Schema.isMaxLength(EMAIL_MAX_LENGTH, { message: EMAIL_MESSAGE }),
  Schema.isPattern(EMAIL_PATTERN, { message: EMAIL_MESSAGE }),
  // a value refused above already has its message, once
  Schema.makeFilter((value: string) => !isEmailShape(value) || deliverableEmail(value) !== undefined || EMAIL_MESSAGE)
)
export const Password = Schema.String.check(
  Schema.isMinLength(PASSWORD_MIN_LENGTH, { message: PASSWORD_MESSAGE }),
  Schema.isMaxLength(PASSWORD_MAX_LENGTH, { message: PASSWORD_TOO_LONG_MESSAGE })
)
export const Username = Schema.String.check(
  Schema.isPattern(/\S/, { message: USERNAME_MESSAGE }),
  Schema.isMaxLength(USERNAME_MAX_LENGTH, { message: USERNAME_TOO_LONG_MESSAGE })
)
/** Any password as typed, e.g. the current one: only as long as a password can be. */
export const PasswordText = Schema.String.check(Schema.isMaxLength(PASSWORD_MAX_LENGTH, { message: PASSWORD_TOO_LONG_MESSAGE }))

// the forms' rules are these schemas' first messages (SPEC §5), so browser and server agree
const checkEmail = firstIssueWith(Email)
const checkUsername = firstIssueWith(Username)
const checkPassword = firstIssueWith(Password)
const checkPasswordText = firstIssueWith(PasswordText)

/** A non-empty opaque token of reasonable length. */
export const TokenString = Schema.String.check(
  Schema.isMinLength(1, { message: "Token is required" }),
  Schema.isMaxLength(512, { message: "Token is too long" })
)
