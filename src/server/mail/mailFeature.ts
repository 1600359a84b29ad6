import type { Command } from "../cli/command.ts"
import type { MailKind } from "../db/schema.ts"
import { mailList, mailRetry } from "./mailCommands.ts"
import { startMailWorker } from "./mailWorker.ts"
import { composeMail, oneLine, tokenLink } from "./messages.ts"
import { enqueueMail } from "./outbox.ts"
import { deleteFinishedMails, redactFailedMails } from "./outboxRepo.ts"
import { createTransport } from "./transports.ts"

/** A mail ready for the outbox, as `mail.compose` makes it. */
export interface Mail {
  to: string
  kind: MailKind
  subject: string
  text: string
  html: string
}

/** The site a mail speaks for. */
export interface MailSite {
  /** Product name as the site settings give it. */
  siteName: string
  /** Origin the app is reached at; a trailing slash is tolerated. */
  publicUrl: string
}

/**
 * What other features do with mail: compose it, queue it inside their own transaction, and keep
 * the outbox tidy. Delivery happens in the worker, which `main.ts` starts.
 */
export const mail = {
  compose: composeMail,
  tokenLink,
  oneLine,
  enqueue: enqueueMail,
  redactFailed: redactFailedMails,
  deleteFinished: deleteFinishedMails
} as const

export const mailDelivery = { createTransport, startWorker: startMailWorker } as const

export const mailCommands: ReadonlyArray<Command> = [mailList, mailRetry]
