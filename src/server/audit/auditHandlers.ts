import type { Kysely } from "kysely"
import { AUDIT_PAGE_SIZE, isAuditAction, normaliseActor } from "../../domain/Audit.ts"
import type { auditContract } from "../../domain/contract/audit.ts"
import type { Tables } from "../db/schema.ts"
import { MAX_STORED_ID } from "../db/storedId.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { type AuditRow, listAuditEntries } from "./auditRepo.ts"

const entryOf = (row: AuditRow) => ({
  id: row.id,
  at: row.at,
  actor: row.actor,
  action: row.action,
  target: row.target,
  detail: row.detail,
  address: row.address
})

/** The staff's view of the audit log: a page of entries, newest first, and where the next page starts. */
export function auditHandlers(db: Kysely<Tables>): HandlersOf<typeof auditContract> {
  return {
    async auditLog({ query }) {
      const limit = query?.limit === undefined ? AUDIT_PAGE_SIZE : Number(query.limit)
      const before = query?.before === undefined ? undefined : Number(query.before)
      // every stored id is below a `before` past the largest one
      const below = before === undefined || before > MAX_STORED_ID ? undefined : before
      const action = query?.action !== undefined && isAuditAction(query.action) ? query.action : undefined
      // one more than the page says whether anything older is left
      const rows = await listAuditEntries(db, {
        actor: query?.actor === undefined ? undefined : normaliseActor(query.actor),
        action,
        before: below,
        limit: limit + 1
      })
      const page = rows.slice(0, limit)
      return { success: true, data: page.map(entryOf), next: rows.length > limit ? (page.at(-1)?.id ?? null) : null }
    }
  }
}
