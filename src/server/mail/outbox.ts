import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { Mail } from "./mailFeature.ts"
import { insertOutboxMail } from "./outboxRepo.ts"

/**
 * Accepts a mail for delivery and returns its outbox id. Nothing is sent here: pass the caller's
 * transaction as `db` and the mail exists exactly when the change that caused it commits (no
 * reset mail for a rolled-back token, no token without its mail). Then `wake()` the worker.
 */
export async function enqueueMail(db: Kysely<Tables>, mail: Mail, now: Date = new Date()): Promise<number> {
  const row = await insertOutboxMail(db, {
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    kind: mail.kind,
    created_at: now.toISOString()
  })
  return row.id
}
