import type { Kysely } from "kysely"
import { deliverableEmail } from "../../domain/Validation.ts"
import type { MailKind, OutboxRow, Tables } from "../db/schema.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { claimMail, findDueMails, markMailSent, recordMailFailure } from "./outboxRepo.ts"
import type { MailLogger, MailTransport } from "./transports.ts"

// Delivers the outbox. The table is the queue: a mail is marked sent only after the transport
// took it, so a crash or restart at any point leaves it pending and the next worker sends it.

export interface RetryPolicy {
  /** Delay after the first failure; doubles with each further one. */
  baseDelayMs: number
  maxDelayMs: number
  /** After this many failed attempts the mail is marked `failed` and left alone. */
  maxAttempts: number
}

// Eight attempts from 30 s doubling span about an hour: long enough to ride out a relay restart
// or a short outage, and no longer than a reset link lives.
export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 30_000, maxDelayMs: 60 * 60_000, maxAttempts: 8 }

/** How long a worker keeps a mail to itself while sending it; SMTP timeouts stay well inside. */
export const LEASE_MS = 5 * 60_000

export interface MailWorkerOptions {
  db: Kysely<Tables>
  transport: MailTransport
  logger: MailLogger
  now?: () => Date
  /** How often to look for due mail when nobody calls `wake()`; retries are found this way. */
  pollMs?: number
  batchSize?: number
  retry?: Partial<RetryPolicy>
  /** The Reply-To of a mail of `kind`, if any; by default the site settings say (see `replyToFromSettings`). */
  replyTo?: (kind: MailKind) => Promise<string | undefined>
}

// A customer answering a support mail reaches the support address (site setting supportEmail);
// every other mail answers to no one, as its From says. Read when the mail is sent rather than
// kept in the outbox: a mail waits there seconds, and the support mail's text was written for the
// setting of that moment (see supportMails).
const REPLY_TO_SETTING: Partial<Record<MailKind, "supportEmail">> = { "ticket-reply": "supportEmail", "ticket-status": "supportEmail" }

/** Reply-To as the site settings give it: the support address for support mails, when there is one. */
export const replyToFromSettings =
  (db: Kysely<Tables>) =>
  async (kind: MailKind): Promise<string | undefined> => {
    const setting = REPLY_TO_SETTING[kind]
    if (setting === undefined) return undefined
    const address = (await siteSettings.inEffect(db))[setting]
    return address === "" ? undefined : deliverableEmail(address)
  }

export interface MailWorker {
  /** Look for due mail now, e.g. right after a transaction that enqueued some committed. */
  wake(): void
  /** Resolves once everything due at the time of the call has been attempted. */
  drain(): Promise<void>
  /** Stops polling and waits for a send in progress to finish and be recorded. */
  stop(): Promise<void>
}

/** Delay before the next attempt of a mail that has failed `attemptsSoFar` times before this one. */
export function retryDelayMs(attemptsSoFar: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  return Math.min(policy.baseDelayMs * 2 ** attemptsSoFar, policy.maxDelayMs)
}

export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const { db, transport, logger } = options
  const now = options.now ?? (() => new Date())
  const pollMs = options.pollMs ?? 5_000
  const batchSize = options.batchSize ?? 20
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry }
  const replyTo = options.replyTo ?? replyToFromSettings(db)

  let stopped = false
  // Set by every request for a pass; a pass in progress loops once more instead of racing a second.
  let requested = false
  let pass: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined

  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  const arm = () => {
    clearTimer()
    timer = setTimeout(() => void run(), pollMs)
    // Polling alone must not keep a process alive that has nothing else to do.
    timer.unref()
  }

  const run = (): Promise<void> => {
    requested = true
    clearTimer()
    pass ??= pump().finally(() => {
      pass = undefined
      if (stopped) return
      // A request that arrived after the loop's last check but before this point.
      if (requested) void run()
      else arm()
    })
    return pass
  }

  const pump = async (): Promise<void> => {
    while (requested && !stopped) {
      requested = false
      try {
        await deliverDue()
      } catch (error) {
        // The database is unreachable or similar: nothing is lost, the next poll tries again.
        logger.error(`mail worker: ${describe(error)}`)
      }
    }
  }

  const deliverDue = async (): Promise<void> => {
    for (;;) {
      const due = await findDueMails(db, now().toISOString(), batchSize)
      for (const mail of due) {
        if (stopped) return
        await deliver(mail)
      }
      if (due.length < batchSize) return
    }
  }

  const deliver = async (mail: OutboxRow): Promise<void> => {
    const claimedAt = now()
    const leaseUntil = new Date(claimedAt.getTime() + LEASE_MS).toISOString()
    if (!(await claimMail(db, mail.id, claimedAt.toISOString(), leaseUntil))) return
    // Addresses are stored as mail carries them (normaliseEmail); one kept before that rule, with a
    // Unicode domain, still goes out in ASCII, and one no server takes is given up on at once.
    const to = deliverableEmail(mail.to_address)
    if (to === undefined) {
      const reason = `${mail.to_address} is not an address mail can be delivered to (text before the @ must be ASCII)`
      await recordMailFailure(db, mail.id, { attempts: mail.attempts + 1, error: reason, retryAt: undefined })
      logger.error(`mail #${mail.id} (${mail.kind}) not sent: ${reason}`)
      return
    }
    try {
      const answerTo = await replyTo(mail.kind)
      await transport.send({
        to,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        ...(answerTo === undefined ? {} : { replyTo: answerTo })
      })
    } catch (error) {
      await recordFailure(mail, error)
      return
    }
    // Should this write fail, the lease runs out and the mail goes again: a duplicate, not a loss.
    await markMailSent(db, mail.id, now().toISOString())
    logger.info(`mail #${mail.id} (${mail.kind}) to ${mail.to_address} delivered via ${transport.description}`)
  }

  const recordFailure = async (mail: OutboxRow, error: unknown): Promise<void> => {
    const attempts = mail.attempts + 1
    const reason = describe(error).slice(0, 1000)
    const label = `mail #${mail.id} (${mail.kind}) to ${mail.to_address}`
    if (attempts >= retry.maxAttempts) {
      await recordMailFailure(db, mail.id, { attempts, error: reason, retryAt: undefined })
      logger.error(`${label} failed ${attempts} times, giving up: ${reason}`)
      return
    }
    const retryAt = new Date(now().getTime() + retryDelayMs(mail.attempts, retry)).toISOString()
    await recordMailFailure(db, mail.id, { attempts, error: reason, retryAt })
    logger.warn(`${label} failed (attempt ${attempts} of ${retry.maxAttempts}), retrying at ${retryAt}: ${reason}`)
  }

  // Mail left pending by a previous run goes out on start, without waiting for the first poll.
  void run()

  return {
    wake() {
      if (!stopped) void run()
    },
    async drain() {
      if (stopped) return
      await run()
      while (pass !== undefined) await pass
    },
    async stop() {
      stopped = true
      clearTimer()
      while (pass !== undefined) await pass
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
