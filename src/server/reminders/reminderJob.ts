import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { type PeriodicJob, startPeriodicJob } from "../http/periodicJob.ts"
import type { MailWaker } from "../http/serverFeature.ts"
import { type MailSite, mail } from "../mail/mailFeature.ts"
import { type RemindedProgramme, reminderDroppedMail, reminderMail } from "./reminderMails.ts"
import { moveSearchRange, timesFrom, whereaboutsOf } from "./reminderRules.ts"
import {
  deleteEnded,
  deleteReminderById,
  dueReminders,
  hasReminderAt,
  type MailableReminder,
  moveReminder,
  pendingAstray,
  programmesTitled,
  settleReminder
} from "./remindersRepo.ts"

export const REMINDERS_LEASE = "reminders"
const SECOND = 1000
/** Reminders handled per statement; a pass goes on until none are left. */
const BATCH = 200
const MAX_BATCHES = 50

export interface ReminderPass {
  /** reminders of programmes over, removed */
  readonly removed: number
  /** reminders that followed their programme to new times */
  readonly moved: number
  /** reminders whose programme left the guide, the viewer told */
  readonly dropped: number
  /** reminders mailed */
  readonly sent: number
}

export interface ReminderPassDeps {
  readonly db: Kysely<Tables>
  /** Epoch ms. */
  readonly now: () => number
  /** the site the mails speak for, read at each pass */
  readonly site: () => Promise<MailSite>
  readonly mailWorker: MailWaker
}

const programmeOf = (reminder: MailableReminder): RemindedProgramme => ({
  to: reminder.email,
  title: reminder.title,
  channel: reminder.channel,
  streamId: reminder.stream_id,
  startAt: reminder.start_at,
  leadMinutes: reminder.lead_minutes,
  timeZone: reminder.time_zone
})

async function inBatches(load: () => Promise<ReadonlyArray<MailableReminder>>, each: (reminder: MailableReminder) => Promise<void>) {
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const reminders = await load()
    for (const reminder of reminders) await each(reminder)
    if (reminders.length < BATCH) return
  }
}

/**
 * One pass over the reminders as of now: those of programmes over are removed; pending ones
 * whose programme the guide moved follow it (same channel and title, the nearest start within
 * 12 hours), and those whose programme left the guide are dropped with a mail to say so; then
 * the ones due are mailed. A reminder is marked sent or dropped in the transaction that queues
 * its mail, and only while still pending, so each mail is queued once across every instance.
 */
export async function runReminderPass({ db, now, site, mailWorker }: ReminderPassDeps): Promise<ReminderPass> {
  const at = new Date(now()).toISOString()
  const removed = await deleteEnded(db, at)
  let moved = 0
  let dropped = 0
  let sent = 0
  let from: MailSite | undefined
  const siteOnce = async () => {
    from ??= await site()
    return from
  }

  // by id, after the last one handled: one whose move failed stays astray, and is met once a pass
  let after = 0
  await inBatches(
    () => pendingAstray(db, at, { afterId: after, limit: BATCH }),
    async (reminder) => {
      after = reminder.id
      const candidates = await programmesTitled(db, reminder.channel_id, reminder.title, moveSearchRange(reminder.start_at))
      const where = whereaboutsOf(reminder, candidates)
      if (where.kind === "stretched") {
        if (await moveReminder(db, reminder.id, timesFrom(where.programme, reminder.lead_minutes))) moved += 1
      } else if (where.kind === "moved") {
        // the viewer set a reminder of the new slot too: that one stands
        if (await hasReminderAt(db, reminder.user_id, where.programme.channel_id, where.programme.start_at)) {
          await deleteReminderById(db, reminder.id)
        } else if (await moveReminder(db, reminder.id, timesFrom(where.programme, reminder.lead_minutes))) moved += 1
      } else {
        const notice = reminderDroppedMail(await siteOnce(), programmeOf(reminder))
        const told = await db.transaction().execute(async (trx) => {
          if (!(await settleReminder(trx, reminder.id, "dropped", at))) return false
          await mail.enqueue(trx, notice, new Date(at))
          return true
        })
        if (told) dropped += 1
      }
    }
  )

  await inBatches(
    () => dueReminders(db, at, BATCH),
    async (reminder) => {
      const message = reminderMail(await siteOnce(), programmeOf(reminder))
      const queued = await db.transaction().execute(async (trx) => {
        if (!(await settleReminder(trx, reminder.id, "sent", at))) return false
        await mail.enqueue(trx, message, new Date(at))
        return true
      })
      if (queued) sent += 1
    }
  )
  if (dropped + sent > 0) mailWorker.wake()
  return { removed, moved, dropped, sent }
}

export interface ReminderJobOptions extends ReminderPassDeps {
  readonly everyMs?: number
  readonly firstAfterMs?: number
  /** Names this instance in the lease; unique per process by default. */
  readonly holder?: string
  readonly onDone?: (pass: ReminderPass) => void
  readonly onError?: (error: unknown) => void
}

/**
 * Runs the reminder pass every 30 seconds on the instance holding the job's lease, so a reminder
 * goes within half a minute of its time, and a guide refresh's moves are followed as soon.
 */
export function startReminderJob(options: ReminderJobOptions): PeriodicJob<ReminderPass> {
  return startPeriodicJob(() => runReminderPass(options), {
    everyMs: options.everyMs ?? 30 * SECOND,
    firstAfterMs: options.firstAfterMs ?? 10 * SECOND,
    ...(options.onDone === undefined ? {} : { onDone: options.onDone }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    lease: {
      db: options.db,
      name: REMINDERS_LEASE,
      now: options.now,
      ...(options.holder === undefined ? {} : { holder: options.holder })
    }
  })
}
