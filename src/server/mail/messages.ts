import type { MailKind } from "../db/schema.ts"
import { TOKEN_LIFETIME_MS } from "../account/oneTimeTokens.ts"

// Every mail the product sends, as pure functions of their inputs: a plain-text part for clients
// that show no HTML (and for anyone reading the .eml outbox), and an HTML part with the same words.

export interface Mail {
  to: string
  kind: MailKind
  subject: string
  text: string
  html: string
}

interface Site {
  /** Product name as the site settings give it. */
  siteName: string
  /** Origin the app is reached at; a trailing slash is tolerated. */
  publicUrl: string
}

interface TokenMailInput extends Site {
  to: string
  /** The raw token from `issueToken`. */
  token: string
}

export function verificationMail(input: TokenMailInput): Mail {
  return compose(input, "verify", `Confirm your email address for ${input.siteName}`, [
    `Thanks for signing up for ${input.siteName}. Confirm your email address to finish creating your account:`,
    { link: tokenLink(input.publicUrl, "/verify", input.token), label: "Confirm email address" },
    `This link is valid for ${lifetime("verify")}. If you did not sign up, you can ignore this email.`
  ])
}

export function passwordResetMail(input: TokenMailInput): Mail {
  return compose(input, "reset", `Reset your ${input.siteName} password`, [
    `Someone asked to reset the password of your ${input.siteName} account. Choose a new password here:`,
    { link: tokenLink(input.publicUrl, "/password-reset-confirmation", input.token), label: "Choose a new password" },
    `This link is valid for ${lifetime("reset")} and works once. If you did not ask for this, ignore ` +
      "this email: your password stays as it is."
  ])
}

/** Goes to the NEW address: following the link proves the user can read mail there. */
export function emailChangeConfirmationMail(input: TokenMailInput): Mail {
  return compose(input, "email-change", `Confirm your new email address for ${input.siteName}`, [
    `You asked to use this address for your ${input.siteName} account. Confirm it here:`,
    { link: tokenLink(input.publicUrl, "/confirm-email-change", input.token), label: "Confirm new address" },
    `This link is valid for ${lifetime("email-change")}. Until you confirm, your account keeps its ` +
      "current address. If you did not ask for this, ignore this email."
  ])
}

/**
 * Goes to the OLD address, without a link: if someone else got into the account, its owner hears
 * of it at the address they still control. The new address is partly masked because the old
 * mailbox may no longer be the owner's.
 */
export function emailChangeNoticeMail(input: Site & { to: string; newEmail: string }): Mail {
  return compose(input, "email-change-notice", `Your ${input.siteName} email address is being changed`, [
    `Someone asked to change the email address of your ${input.siteName} account to ` +
      `${maskEmail(input.newEmail)}. The change takes effect only once it is confirmed from the new address.`,
    "If this was you, there is nothing to do here. If it was not, change your password now and " +
      "contact support."
  ])
}

/** A staff answer to a support ticket; `message` is shown exactly as staff wrote it. */
export function ticketReplyMail(input: Site & { to: string; ticketSubject: string; message: string }): Mail {
  return compose(input, "ticket-reply", `Re: ${input.ticketSubject} [${input.siteName} support]`, [
    `Our support team answered your ticket "${oneLine(input.ticketSubject)}":`,
    { quote: input.message }
  ])
}

export function tokenLink(publicUrl: string, path: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}${path}?token=${encodeURIComponent(token)}`
}

/** The first http(s) URL in a text body: the link an operator or a test follows. */
export function firstLink(text: string): string | undefined {
  return /https?:\/\/[^\s<>"]+/.exec(text)?.[0]
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c)
}

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"
}

/** A paragraph, a call-to-action link, or text quoted verbatim (line breaks kept). */
type Block = string | { link: string; label: string } | { quote: string }

function compose(input: Site & { to: string }, kind: MailKind, subject: string, blocks: Block[]): Mail {
  const all = [...blocks, signature(input.siteName)]
  return {
    to: input.to,
    kind,
    subject: oneLine(subject),
    text: `${all.map(blockText).join("\n\n")}\n`,
    html: layout(input.siteName, all.map(blockHtml).join("\n"))
  }
}

function blockText(block: Block): string {
  if (typeof block === "string") return block
  return "link" in block ? block.link : block.quote
}

function blockHtml(block: Block): string {
  if (typeof block === "string") return `<p>${escapeHtml(block)}</p>`
  if ("quote" in block) {
    return `<div style="white-space:pre-wrap;border-left:3px solid #ccc;padding-left:12px">${escapeHtml(block.quote)}</div>`
  }
  const href = escapeHtml(block.link)
  return `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;` +
    `text-decoration:none;border-radius:6px">${escapeHtml(block.label)}</a></p>\n` +
    `<p style="font-size:13px;color:#555">Or paste this address into your browser:<br>${href}</p>`
}

function layout(siteName: string, body: string): string {
  return "<!doctype html>\n<html><head><meta charset=\"utf-8\">" +
    `<title>${escapeHtml(siteName)}</title></head>\n` +
    "<body style=\"font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:560px\">\n" +
    `${body}\n</body></html>\n`
}

const signature = (siteName: string): string => `The ${siteName} team`

// Subjects and quoted ticket titles are user input: a line break there could start a new header
// or fake a paragraph.
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/\s+/g, " ").trim()
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
