import type { Kysely } from "kysely"
import type { MailKind, MailStatus, OutboxRow, Tables, Timestamp } from "../db/schema.ts"

export interface NewOutboxMail {
  to_address: string
  subject: string
  text_body: string
  html_body: string
  kind: MailKind
  created_at: Timestamp
  /** Defaults to `created_at`: due at once. */
  next_attempt_at?: Timestamp
}

export async function insertOutboxMail(db: Kysely<Tables>, input: NewOutboxMail): Promise<OutboxRow> {
  return db
    .insertInto("outbox")
    .values({
      ...input,
      status: "pending",
      attempts: 0,
      next_attempt_at: input.next_attempt_at ?? input.created_at,
      last_error: null,
      sent_at: null
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findOutboxMail(db: Kysely<Tables>, id: number): Promise<OutboxRow | undefined> {
  return db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirst()
}

/** Pending mails whose time has come, oldest due first. */
export async function findDueMails(db: Kysely<Tables>, now: Timestamp, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom("outbox")
    .selectAll()
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(limit)
    .execute()
}

/**
 * Takes a due mail for one delivery attempt by moving it out of reach until `leaseUntil`.
 * False when another worker got there first. A worker that dies mid-send leaves the mail pending,
 * so it is tried again once the lease runs out: a mail may be sent twice, never lost.
 */
export async function claimMail(db: Kysely<Tables>, id: number, now: Timestamp, leaseUntil: Timestamp): Promise<boolean> {
  const result = await db
    .updateTable("outbox")
    .set({ next_attempt_at: leaseUntil })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", now)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

// What a delivered or abandoned mail keeps of its bodies. Mail bodies carry single-use links: once
// the mail has left, or its link can no longer work, the database need not hold them any more.
export const DELIVERED_BODY = "[delivered, body removed]"
export const ABANDONED_BODY = "[not delivered, body removed]"

/** Records the delivery and drops the bodies; subject, recipient and status stay for operators. */
export async function markMailSent(db: Kysely<Tables>, id: number, sentAt: Timestamp): Promise<void> {
  await db
    .updateTable("outbox")
    .set({ status: "sent", sent_at: sentAt, last_error: null, text_body: DELIVERED_BODY, html_body: DELIVERED_BODY })
    .where("id", "=", id)
    .execute()
}

export interface FailedAttempt {
  /** The attempt count including this one. */
  attempts: number
  error: string
  /** Undefined gives up: the mail becomes `failed`. */
  retryAt: Timestamp | undefined
}

export async function recordMailFailure(db: Kysely<Tables>, id: number, failure: FailedAttempt): Promise<void> {
  await db
    .updateTable("outbox")
    .set({
      attempts: failure.attempts,
      last_error: failure.error,
      ...(failure.retryAt === undefined ? { status: "failed" } : { next_attempt_at: failure.retryAt })
    })
    .where("id", "=", id)
    .execute()
}

/**
 * Drops the bodies of failed mails of `kind` created up to `createdBefore`. A failed mail keeps its
 * body while an operator could still usefully retry it, i.e. while its link still works.
 */
export async function redactFailedMails(db: Kysely<Tables>, kind: MailKind, createdBefore: Timestamp): Promise<number> {
  const result = await db
    .updateTable("outbox")
    .set({ text_body: ABANDONED_BODY, html_body: ABANDONED_BODY })
    .where("status", "=", "failed")
    .where("kind", "=", kind)
    .where("created_at", "<=", createdBefore)
    .where("text_body", "!=", ABANDONED_BODY)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Housekeeping: sent and failed mails created up to `createdBefore`; pending ones always stay. */
export async function deleteFinishedMails(db: Kysely<Tables>, createdBefore: Timestamp): Promise<number> {
  const result = await db
    .deleteFrom("outbox")
    .where("status", "in", ["sent", "failed"])
    .where("created_at", "<=", createdBefore)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** Newest first, for operators. */
export async function listMails(db: Kysely<Tables>, options: { status?: MailStatus; limit?: number } = {}): Promise<OutboxRow[]> {
  let query = db
    .selectFrom("outbox")
    .selectAll()
    .orderBy("id", "desc")
    .limit(options.limit ?? 50)
  if (options.status !== undefined) query = query.where("status", "=", options.status)
  return query.execute()
}

/**
 * Puts failed mails back in the queue with a fresh round of attempts, due at `now`: all of them,
 * or those in `ids`. Mails whose body is gone are left alone. Returns the ids queued again.
 */
export async function requeueFailedMails(db: Kysely<Tables>, now: Timestamp, ids?: ReadonlyArray<number>): Promise<number[]> {
  if (ids !== undefined && ids.length === 0) return []
  let query = db
    .updateTable("outbox")
    .set({ status: "pending", attempts: 0, next_attempt_at: now, last_error: null })
    .where("status", "=", "failed")
    .where("text_body", "!=", ABANDONED_BODY)
  if (ids !== undefined) query = query.where("id", "in", [...ids])
  const rows = await query.returning("id").execute()
  return rows.map((row) => row.id).sort((a, b) => a - b)
}
