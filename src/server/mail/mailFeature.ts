import type { Command } from "../cli/command.ts"
import { mailList, mailRetry } from "./mailCommands.ts"
import { startMailWorker } from "./mailWorker.ts"
import { composeMail, firstLink, oneLine, tokenLink } from "./messages.ts"
import { enqueueMail } from "./outbox.ts"
import { deleteFinishedMails, redactFailedMails } from "./outboxRepo.ts"
import { createTransport } from "./transports.ts"

/** A mail ready for the outbox, as `mail.compose` makes it. */
export type Mail = ReturnType<typeof composeMail>
/** The site a mail speaks for: its name and the origin its links point at. */
export type MailSite = Pick<Parameters<typeof composeMail>[0], "siteName" | "publicUrl">

/**
 * What other features do with mail: compose it, queue it inside their own transaction, and keep
 * the outbox tidy. Delivery happens in the worker, which `main.ts` starts.
 */
export const mail = {
  compose: composeMail,
  tokenLink,
  firstLink,
  oneLine,
  enqueue: enqueueMail,
  redactFailed: redactFailedMails,
  deleteFinished: deleteFinishedMails
} as const

export const mailDelivery = { createTransport, startWorker: startMailWorker } as const

export const mailCommands: ReadonlyArray<Command> = [mailList, mailRetry]
