import {
  AUDIT_ACTION_CODES,
  AUDIT_PAGE_SIZE,
  AUDIT_RETENTION_DAYS,
  auditActorLabel,
  isAuditAction,
  normaliseActor
} from "../../domain/Audit.ts"
import { type Command, optionalText, UsageError } from "../cli/command.ts"
import { type AuditRow, listAuditEntries } from "./auditRepo.ts"

const minute = (timestamp: string): string => `${timestamp.slice(0, 19).replace("T", " ")}Z`

/** One entry on one line: when, who, what, to what, what changed, from where. */
export const auditLine = (row: AuditRow): string =>
  [
    minute(row.at),
    auditActorLabel(row.actor),
    row.action,
    row.target,
    ...(row.detail === "" ? [] : [row.detail.replace(/\s+/g, " ")]),
    ...(row.address === null ? [] : [`from ${row.address}`])
  ].join("  ")

function limitOption(text: string | undefined): number {
  if (text === undefined) return AUDIT_PAGE_SIZE
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 10_000)
    throw new UsageError(`--limit must be a whole number from 1 to 10000 (got "${text}")`)
  return Number(text)
}

export const auditList: Command = {
  name: "audit:list",
  usage: "[--actor EMAIL|cli:USER] [--action CODE] [--limit N]",
  summary: `List what staff and operators did, newest first (the last ${AUDIT_PAGE_SIZE} unless --limit says; kept ${AUDIT_RETENTION_DAYS} days)`,
  options: { actor: { type: "string" }, action: { type: "string" }, limit: { type: "string" } },
  async run(args, { db, out }) {
    const actorText = optionalText(args, "actor")
    if (actorText !== undefined && actorText.trim() === "") throw new UsageError("--actor must name someone (an email, or cli:USER)")
    const action = optionalText(args, "action")?.trim().toLowerCase()
    if (action !== undefined && !isAuditAction(action)) {
      throw new UsageError(`--action must be one of ${AUDIT_ACTION_CODES.join(", ")} (got "${action}")`)
    }
    const limit = limitOption(optionalText(args, "limit"))
    const rows = await listAuditEntries(db, {
      actor: actorText === undefined ? undefined : normaliseActor(actorText),
      action,
      limit
    })
    if (rows.length === 0) {
      out("No audit entries")
      return 0
    }
    for (const row of rows) out(auditLine(row))
    if (rows.length === limit) out(`(the newest ${limit}; use --limit to see more)`)
    return 0
  }
}
