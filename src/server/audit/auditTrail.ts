import type { FastifyRequest } from "fastify"
import type { Kysely } from "kysely"
import { normaliseActor, OPERATOR_PREFIX } from "../../domain/Audit.ts"
import type { Tables } from "../db/schema.ts"
import type { Session } from "../http/session.ts"
import { type AuditActor, type AuditRecord, insertAuditEntry } from "./auditRepo.ts"

/** A staff member acting through the API: their email and account, and the client's address (TRUST_PROXY decides which). */
export const staffActor = (session: Pick<Session, "email" | "userId">, request: Pick<FastifyRequest, "ip">): AuditActor => ({
  actor: session.email,
  userId: session.userId,
  address: request.ip ?? null
})

/** An operator running a CLI command as `user` (of the operating system): there is no account and no address. */
export const operatorActor = (user: string): AuditActor => ({
  actor: normaliseActor(`${OPERATOR_PREFIX}${user.trim() === "" ? "unknown" : user}`),
  userId: null,
  address: null
})

/**
 * Writes one entry of the audit log. Given the transaction that makes the change, the entry and
 * the change are committed together or not at all.
 */
export async function recordAudit(db: Kysely<Tables>, by: AuditActor, record: AuditRecord, at: number): Promise<void> {
  await insertAuditEntry(db, by, record, new Date(at).toISOString())
}

/**
 * An address as the log may keep it: without the user, password, query or fragment it may carry
 * (a provider's credentials ride there), so `https://u:p@host/feed.xml?key=…` is
 * `https://host/feed.xml?…`. Text that is no URL (a file's path) is kept as it is.
 */
export function withoutSecrets(location: string): string {
  let url: URL
  try {
    url = new URL(location)
  } catch {
    return location
  }
  if (url.protocol === "file:") return location
  const hidden = url.search !== "" || url.hash !== ""
  const credentials = url.username !== "" || url.password !== ""
  return `${url.protocol}//${credentials ? "…@" : ""}${url.host}${url.pathname === "/" && !location.endsWith("/") ? "" : url.pathname}${hidden ? "?…" : ""}`
}
