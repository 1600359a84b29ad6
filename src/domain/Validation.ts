import * as Schema from "effect/Schema"
import { firstIssueWith } from "./decode.ts"

// "Text" has no white space, '@' or control characters (C0, DEL, C1): a NUL or an escape code in
// an address is never a typo worth keeping, and would end up in mail headers and logs.
const EMAIL_TEXT = String.raw`[^\s@\u0000-\u001f\u007f-\u009f]+`
/** The loose pattern of SPEC §5: text, '@', text, '.', text. */
export const EMAIL_PATTERN = new RegExp(`^${EMAIL_TEXT}@${EMAIL_TEXT}\\.${EMAIL_TEXT}$`)

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

export const isEmail = (value: string): boolean => value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value)

/** Emails are lower-cased (and trimmed) before they are sent or stored. */
export const normaliseEmail = (value: string): string => value.trim().toLowerCase()

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
  Schema.isPattern(EMAIL_PATTERN, { message: EMAIL_MESSAGE })
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
