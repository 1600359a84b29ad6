import { audit } from "../audit/auditFeature.ts"
import { type Command, CommandFailure, optionalText, plural, requireId, table, UsageError } from "../cli/command.ts"
import type { MailStatus, OutboxRow } from "../db/schema.ts"
import { ABANDONED_BODY, findOutboxMail, listMails, requeueFailedMails } from "./outboxRepo.ts"

const STATUSES: ReadonlyArray<MailStatus> = ["pending", "sent", "failed"]
const DEFAULT_LIMIT = 50

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const minute = (timestamp: string): string => timestamp.slice(0, 16).replace("T", " ")

function statusOption(text: string | undefined): MailStatus | undefined {
  if (text === undefined) return undefined
  const status = STATUSES.find((s) => s === text.trim().toLowerCase())
  if (status === undefined) throw new UsageError(`--status must be one of ${STATUSES.join(", ")} (got "${text}")`)
  return status
}

function limitOption(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1) throw new UsageError(`--limit must be a whole number from 1 to 99999 (got "${text}")`)
  return Number(text)
}

function mailTable(mails: ReadonlyArray<OutboxRow>): string {
  return table(
    ["id", "status", "kind", "to", "subject", "tries", "created (UTC)", "last error"],
    mails.map((m) => [
      String(m.id),
      m.status,
      m.kind,
      m.to_address,
      clip(m.subject, 40),
      String(m.attempts),
      minute(m.created_at),
      clip(m.last_error ?? "", 60)
    ])
  )
}

export const mailList: Command = {
  name: "mail:list",
  usage: "[--status failed|pending|sent] [--limit N]",
  summary: "List outgoing mail, newest first (sent and failed mails are kept 30 days)",
  options: { status: { type: "string" }, limit: { type: "string" } },
  async run(args, { db, out }) {
    const status = statusOption(optionalText(args, "status"))
    const limit = limitOption(optionalText(args, "limit"))
    const mails = await listMails(db, { ...(status === undefined ? {} : { status }), limit })
    if (mails.length === 0) {
      out(status === undefined ? "No mails" : `No ${status} mails`)
      return 0
    }
    out(mailTable(mails))
    if (mails.length === limit) out(`(the newest ${limit}; use --limit to see more)`)
    return 0
  }
}

export const mailRetry: Command = {
  name: "mail:retry",
  usage: "--id N | --all-failed",
  summary: "Queue failed mail again for delivery, with a fresh round of attempts",
  options: { id: { type: "string" }, "all-failed": { type: "boolean" } },
  async run(args, { db, out, now, operator }) {
    const all = args["all-failed"] === true
    if (all === (args.id !== undefined)) throw new UsageError("give exactly one of --id N or --all-failed")
    const at = new Date(now()).toISOString()
    const record = (trx: typeof db, ids: ReadonlyArray<number>) =>
      audit.record(
        trx,
        audit.operator(operator),
        { action: "mail.retry", target: ids.map((id) => `mail ${id}`).join(", "), detail: JSON.stringify({ mails: ids.length }) },
        Date.parse(at)
      )
    if (all) {
      const ids = await db.transaction().execute(async (trx) => {
        const requeued = await requeueFailedMails(trx, at)
        if (requeued.length > 0) await record(trx, requeued)
        return requeued
      })
      out(
        ids.length === 0
          ? "No failed mails to retry"
          : `Queued ${plural(ids.length, "mail")} again: ${ids.map((id) => `#${id}`).join(", ")}`
      )
      return 0
    }
    const id = requireId(args)
    const mail = await findOutboxMail(db, id)
    if (mail === undefined) throw new CommandFailure(`No mail with id ${id}. List mails with mail:list.`)
    if (mail.status !== "failed") throw new CommandFailure(`Mail #${id} is ${mail.status}; only failed mails are retried`)
    if (mail.text_body === ABANDONED_BODY) {
      throw new CommandFailure(`Mail #${id} is too old to retry: its link had expired, so its body was removed`)
    }
    await db.transaction().execute(async (trx) => {
      await requeueFailedMails(trx, at, [id])
      await record(trx, [id])
    })
    out(`Queued mail #${id} to ${mail.to_address} again; the server sends it on its next pass (every few seconds while it runs)`)
    return 0
  }
}
