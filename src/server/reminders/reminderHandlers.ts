import type { Kysely } from "kysely"
import type { remindersContract } from "../../domain/contract/reminders.ts"
import {
  CALENDAR_FEED_REVOKED,
  MAX_REMINDERS,
  PROGRAMME_NOT_FOUND,
  PROGRAMME_STARTED,
  REMINDER_NOT_FOUND,
  REMINDER_REMOVED,
  REMINDER_SET,
  remindAtOf,
  TOO_MANY_REMINDERS
} from "../../domain/Reminder.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import type { Tables } from "../db/schema.ts"
import { isStoredId } from "../db/storedId.ts"
import { HttpFailure } from "../http/HttpFailure.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { calendarFeedUrl, hashFeedSecret, newFeedSecret } from "./calendarFeed.ts"
import { deleteCalendarFeed, findCalendarFeed, replaceCalendarFeed } from "./calendarFeedsRepo.ts"
import { reminderOf, storedInstant } from "./reminderRules.ts"
import {
  countUpcoming,
  deleteReminder,
  findProgrammeOnStream,
  findReminder,
  hasReminderAt,
  listReminders,
  upsertReminder
} from "./remindersRepo.ts"

export type ReminderHandlers = HandlersOf<typeof remindersContract>

export interface ReminderHandlerDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly publicUrl: string
  /** asks the reminder job for a pass soon: a reminder set inside its lead is due at once */
  readonly remindSoon: () => void
}

const notFound = (detail: string) => new HttpFailure(404, detail, { resultCode: ResultCode.NOT_FOUND })
const conflict = (detail: string) => new HttpFailure(409, detail)

export function reminderHandlers({ db, now, publicUrl, remindSoon }: ReminderHandlerDeps): ReminderHandlers {
  const isoNow = () => new Date(now()).toISOString()
  return {
    async reminders({ session }) {
      return { success: true, data: (await listReminders(db, session.userId, isoNow())).map(reminderOf) }
    },

    async createReminder({ body, session }) {
      const at = now()
      const startAt = storedInstant(body.startTime)
      const programme = isStoredId(body.streamId) ? await findProgrammeOnStream(db, body.streamId, startAt) : undefined
      if (programme === undefined) throw notFound(PROGRAMME_NOT_FOUND)
      const start = Date.parse(programme.start_at)
      if (start <= at) throw conflict(PROGRAMME_STARTED)
      const iso = new Date(at).toISOString()
      const id = await db.transaction().execute(async (trx) => {
        const again = await hasReminderAt(trx, session.userId, programme.channel_id, programme.start_at)
        if (!again && (await countUpcoming(trx, session.userId, iso)) >= MAX_REMINDERS) throw conflict(TOO_MANY_REMINDERS)
        return upsertReminder(trx, {
          user_id: session.userId,
          stream_id: body.streamId,
          channel_id: programme.channel_id,
          start_at: programme.start_at,
          stop_at: programme.stop_at,
          title: programme.title,
          lead_minutes: body.leadMinutes,
          remind_at: new Date(remindAtOf(start, body.leadMinutes)).toISOString(),
          time_zone: body.timeZone ?? "UTC",
          created_at: iso
        })
      })
      if (remindAtOf(start, body.leadMinutes) <= at) remindSoon()
      const saved = await findReminder(db, session.userId, id)
      if (saved === undefined) throw notFound(PROGRAMME_NOT_FOUND)
      return { success: true, data: reminderOf(saved), detail: REMINDER_SET }
    },

    async deleteReminder({ params, session }) {
      // removing is idempotent: a second click, or another tab, finds it gone, which is what was asked
      const id = Number(params.id)
      const removed = isStoredId(id) && (await deleteReminder(db, session.userId, id))
      return { success: true, detail: removed ? REMINDER_REMOVED : REMINDER_NOT_FOUND }
    },

    async calendarFeed({ session }) {
      const feed = await findCalendarFeed(db, session.userId)
      return { success: true, data: { active: feed !== undefined, createdAt: feed?.created_at ?? null } }
    },

    async createCalendarFeed({ session }) {
      const secret = newFeedSecret()
      const createdAt = isoNow()
      await replaceCalendarFeed(db, session.userId, hashFeedSecret(secret), createdAt)
      return { success: true, data: { active: true, createdAt, url: calendarFeedUrl(publicUrl, secret) } }
    },

    async revokeCalendarFeed({ session }) {
      await deleteCalendarFeed(db, session.userId)
      return { success: true, detail: CALENDAR_FEED_REVOKED }
    }
  }
}
