import type { MailKind } from "../db/schema.ts"
import type { Mail, MailSite } from "./mailFeature.ts"

// How every mail the product sends is put together, as pure functions of their inputs: a
// plain-text part for clients that show no HTML (and for anyone reading the .eml outbox), and an
// HTML part with the same words. Each feature writes its own mails with these.

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
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
}

/** A paragraph, a call-to-action link, or text quoted verbatim (line breaks kept). */
type Block = string | { link: string; label: string } | { quote: string }

/** A mail of `blocks` with the site's signature, as plain text and as HTML with the same words. */
export function composeMail(input: MailSite & { to: string }, kind: MailKind, subject: string, blocks: Block[]): Mail {
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
  return (
    `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;` +
    `text-decoration:none;border-radius:6px">${escapeHtml(block.label)}</a></p>\n` +
    `<p style="font-size:13px;color:#555">Or paste this address into your browser:<br>${href}</p>`
  )
}

function layout(siteName: string, body: string): string {
  return (
    '<!doctype html>\n<html><head><meta charset="utf-8">' +
    `<title>${escapeHtml(siteName)}</title></head>\n` +
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111;max-width:560px">\n' +
    `${body}\n</body></html>\n`
  )
}

const signature = (siteName: string): string => `The ${siteName} team`

// Subjects and quoted ticket titles are user input: a line break there could start a new header
// or fake a paragraph.
export function oneLine(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: a header line must hold no control characters
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  )
}
