import * as Schema from "effect/Schema"

/**
 * What staff and operators do that the audit log keeps, each by a short code that never changes
 * once written (old rows keep it), with the words people read it as.
 */
export const AUDIT_ACTIONS = {
  "maintenance.on": "Maintenance on",
  "maintenance.off": "Maintenance off",
  "announcement.set": "Announcement published",
  "settings.set": "Site setting changed",
  "stream.add": "Stream added",
  "stream.set": "Stream changed",
  "stream.remove": "Stream removed",
  "stream.maintenance": "Stream maintenance flag",
  "stream.import": "Streams imported",
  "stream.relay": "Stream relay set",
  "stream.key.rotate": "Ingest key replaced",
  "payment.add": "Payment recorded",
  "payment.import": "Payments imported",
  "rewards.adjust": "Reward points adjusted",
  "user.create": "Account created",
  "user.password": "Password set",
  "user.disable": "Account disabled",
  "user.enable": "Account enabled",
  "user.metering": "Metering changed",
  "mail.retry": "Mail queued again",
  "session.end": "Connection ended",
  "ticket.status": "Ticket status changed",
  "ticket.reply": "Ticket answered",
  "guide.import": "Guide imported"
} as const satisfies Record<string, string>

export type AuditAction = keyof typeof AUDIT_ACTIONS
export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTIONS) as ReadonlyArray<AuditAction>
export const isAuditAction = (code: string): code is AuditAction => Object.hasOwn(AUDIT_ACTIONS, code)
/** An action as people read it; a code this version does not know is shown as it is. */
export const auditActionLabel = (code: string): string => (isAuditAction(code) ? AUDIT_ACTIONS[code] : code)

/** Who did it, for actions run from the operator CLI: `cli:` and the OS user who ran it. */
export const OPERATOR_PREFIX = "cli:"
/** An actor as people read it: a staff member's email, or "Operator CLI (user)". */
export const auditActorLabel = (actor: string): string =>
  actor.startsWith(OPERATOR_PREFIX) ? `Operator CLI (${actor.slice(OPERATOR_PREFIX.length)})` : actor

/** Entries one page of the log shows, and the most one request may ask for. */
export const AUDIT_PAGE_SIZE = 50
export const AUDIT_MAX_LIMIT = 200
/** How long entries are kept; older ones are removed by the server's housekeeping. */
export const AUDIT_RETENTION_DAYS = 400

export const EMPTY_AUDIT = "No audit entries"
export const AUDIT_FAILED_MESSAGE = "The audit log could not be loaded."
export const ACTOR_FILTER_MESSAGE = "Enter an email, or cli: and the operator's user name"
export const ACTION_FILTER_MESSAGE = "Choose one of the listed actions"
export const LIMIT_MESSAGE = `Ask for 1 to ${AUDIT_MAX_LIMIT} entries`
export const BEFORE_MESSAGE = "Give the id of the entry to continue after"

/** One thing staff or an operator did: who, what, to what, when, and from where. */
export const AuditEntry = Schema.Struct({
  id: Schema.Number,
  /** ISO 8601, UTC */
  at: Schema.String,
  /** the staff member's email, or `cli:` and the operator's OS user */
  actor: Schema.String,
  /** one of AUDIT_ACTIONS, or a code a newer version wrote */
  action: Schema.String,
  /** what it was done to: `user 12 (a@b.c)`, `stream 3`, `ticket 7`, `site` */
  target: Schema.String,
  /** what changed, never a password, key or token */
  detail: Schema.String,
  /** the client's address for a staff request; null for the operator CLI */
  address: Schema.NullOr(Schema.String)
})
export type AuditEntry = typeof AuditEntry.Type

/**
 * The log's filters and page, as the query string carries them: everyone's entries or one
 * actor's (exactly, any case), every action or one, newest first, `limit` at a time, continuing
 * below the entry `before`.
 */
export const AuditQuery = Schema.Struct({
  actor: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\s*\S{1,254}\s*$/, { message: ACTOR_FILTER_MESSAGE }))),
  action: Schema.optionalKey(Schema.String.check(Schema.makeFilter((code: string) => isAuditAction(code) || ACTION_FILTER_MESSAGE))),
  before: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[1-9][0-9]{0,14}$/, { message: BEFORE_MESSAGE }))),
  limit: Schema.optionalKey(
    Schema.String.check(
      Schema.makeFilter((text: string) => (/^[1-9][0-9]{0,2}$/.test(text) && Number(text) <= AUDIT_MAX_LIMIT) || LIMIT_MESSAGE)
    )
  )
})
export type AuditQuery = typeof AuditQuery.Type

/** One page of the log, and the `before` that continues it (null: nothing older). */
export const AuditPage = Schema.Struct({
  success: Schema.Boolean,
  data: Schema.Array(AuditEntry),
  next: Schema.NullOr(Schema.Number)
})
export type AuditPage = typeof AuditPage.Type

/** An actor filter as the log compares it: trimmed, lower case (emails are stored so). */
export const normaliseActor = (text: string): string => text.trim().toLowerCase()
