import type { Kysely, Selectable } from "kysely"
import type { AuditAction } from "../../domain/Audit.ts"
import { pruneBefore } from "../db/pruneBefore.ts"
import type { AuditLogTable, Tables, Timestamp } from "../db/schema.ts"

export type AuditRow = Selectable<AuditLogTable>

/** Who acted: the name the log keeps, their account (staff) and the address they came from (HTTP). */
export interface AuditActor {
  readonly actor: string
  readonly userId: number | null
  readonly address: string | null
}

/** What was done, to what, and what changed (never a password, key or token). */
export interface AuditRecord {
  readonly action: AuditAction
  readonly target: string
  readonly detail?: string
}

// a detail says what changed in a line or two; an operator's long text is cut, not refused
const MAX_DETAIL = 1000
const clip = (text: string): string => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text)

export async function insertAuditEntry(db: Kysely<Tables>, by: AuditActor, record: AuditRecord, at: Timestamp): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      at,
      actor: by.actor,
      actor_user_id: by.userId,
      action: record.action,
      target: record.target,
      detail: clip(record.detail ?? ""),
      address: by.address
    })
    .execute()
}

export interface AuditFilter {
  /** exactly this actor (emails and OS users are stored lower case) */
  readonly actor?: string | undefined
  readonly action?: AuditAction | undefined
  /** only entries older than this one (by id) */
  readonly before?: number | undefined
  readonly limit: number
}

/** Entries newest first, by id: the order they were written in, whatever the clocks of the writers said. */
export async function listAuditEntries(db: Kysely<Tables>, filter: AuditFilter): Promise<Array<AuditRow>> {
  let query = db.selectFrom("audit_log").selectAll()
  if (filter.actor !== undefined) query = query.where("actor", "=", filter.actor)
  if (filter.action !== undefined) query = query.where("action", "=", filter.action)
  if (filter.before !== undefined) query = query.where("id", "<", filter.before)
  return query.orderBy("id", "desc").limit(filter.limit).execute()
}

/** Removes up to `limit` entries written before `cutoff`; answers how many went. */
export const pruneAuditEntries = (db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> =>
  pruneBefore(db, "audit_log", "id", "at", cutoff, limit)
