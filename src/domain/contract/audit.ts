import { AuditPage, AuditQuery } from "../Audit.ts"
import { endpoint } from "./endpoint.ts"

/** The audit log of what staff and operators did. */
export const auditContract = {
  auditLog: endpoint({
    method: "GET",
    path: "/api/audit",
    query: AuditQuery,
    response: AuditPage,
    access: "staff",
    summary: "Staff and operator actions, newest first: filtered by actor and by action, a page at a time (`before` continues a page)"
  })
} as const
