import type { Command } from "../cli/command.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { auditList } from "./auditCommands.ts"
import { auditHandlers } from "./auditHandlers.ts"
import { startAuditRetention } from "./auditRetention.ts"
import { operatorActor, recordAudit, staffActor, withoutSecrets } from "./auditTrail.ts"

/**
 * The audit log: what staff (through the API) and operators (through the CLI) changed, who did it,
 * to what, when and from where. Staff read it at /adminaudit, operators with audit:list.
 */
export function auditFeature({ db, now, log }: FeatureDeps): ServerFeature {
  const retention = startAuditRetention({
    db,
    now,
    onDone: (removed) => {
      if (removed > 0) log.info(`audit log: removed ${removed} entries past their retention`)
    },
    onError: (error) => log.error({ err: error }, "pruning the audit log failed; the next pass tries again")
  })
  return { handlers: auditHandlers(db), jobs: [retention] }
}

export const auditCommands: ReadonlyArray<Command> = [auditList]

/**
 * What the other features ask of the audit log: `record(trx, actor, { action, target, detail }, now)`
 * inside the transaction of the change, with the actor as `staff(session, request)` or
 * `operator(user)` names them; `withoutSecrets(url)` is an address as a detail may say it.
 */
export const audit = { record: recordAudit, staff: staffActor, operator: operatorActor, withoutSecrets } as const
