import { createHash, randomBytes } from "node:crypto"
import type { FastifyInstance } from "fastify"
import ical, { ICalAlarmType } from "ical-generator"
import type { Kysely } from "kysely"
import { calendarFeedPath, leadLabel, reminderPlayerPath } from "../../domain/Reminder.ts"
import type { Tables } from "../db/schema.ts"
import { HttpFailure } from "../http/HttpFailure.ts"
import { perMinute } from "../http/rateLimits.ts"
import { calendarFeedOwner } from "./calendarFeedsRepo.ts"
import { calendarReminders, type ReminderRow } from "./remindersRepo.ts"

// A private calendar feed: an .ics address per account that phones and calendar apps subscribe
// to, listing the programmes the viewer set reminders of. The secret in the address is the only
// credential (calendar apps send no session), so it is long and random, kept only as its hash,
// and replaced or turned off from the reminders page.

/** A calendar app asks every few minutes at most; a network asking much more often is guessing. */
export const CALENDAR_REQUESTS_PER_MINUTE = 30
/** How often calendar apps are asked to look again (REFRESH-INTERVAL / X-PUBLISHED-TTL). */
const REFRESH_SECONDS = 30 * 60

/** A new feed secret: 256 random bits, as URL-safe text. */
export const newFeedSecret = (): string => randomBytes(32).toString("base64url")
export const hashFeedSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")
const SECRET = /^[A-Za-z0-9_-]{43}$/

export const calendarFeedUrl = (publicUrl: string, secret: string): string => `${publicUrl.replace(/\/+$/, "")}${calendarFeedPath(secret)}`

export interface CalendarSite {
  readonly siteName: string
  readonly publicUrl: string
}

/** The feed's text (RFC 5545): one event per reminder, with an alarm at its lead before the start. */
export function calendarText(site: CalendarSite, reminders: ReadonlyArray<ReminderRow>, now: number): string {
  const publicUrl = site.publicUrl.replace(/\/+$/, "")
  const host = new URL(publicUrl).hostname
  const calendar = ical({
    name: `${site.siteName} reminders`,
    description: `Programmes you set reminders of on ${site.siteName}`,
    prodId: { company: site.siteName, product: "reminders", language: "EN" },
    ttl: REFRESH_SECONDS
  })
  for (const reminder of reminders) {
    const link = `${publicUrl}${reminderPlayerPath(reminder.stream_id, reminder.start_at)}`
    calendar.createEvent({
      // stable per reminder, so an app updates its event when a refresh moves the programme
      id: `reminder-${reminder.id}@${host}`,
      start: new Date(reminder.start_at),
      end: new Date(reminder.stop_at),
      stamp: new Date(now),
      summary: `${reminder.title} (${reminder.channel})`,
      description: `${reminder.title} on ${reminder.channel}. Watch: ${link}`,
      location: reminder.channel,
      url: link,
      alarms: [
        {
          type: ICalAlarmType.display,
          trigger: reminder.lead_minutes * 60,
          description: `${reminder.title} ${leadLabel(reminder.lead_minutes)}`
        }
      ]
    })
  }
  return calendar.toString()
}

export interface CalendarRouteDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly site: () => Promise<CalendarSite>
}

/** GET /calendar/<secret>.ics: no session, the secret is the credential; 404 for one unknown or revoked. */
export function registerCalendarRoute(scope: FastifyInstance, { db, now, site }: CalendarRouteDeps): void {
  scope.get<{ Params: { secret: string } }>(
    "/calendar/:secret.ics",
    { config: perMinute(CALENDAR_REQUESTS_PER_MINUTE, "calendar requests") },
    async (request, reply) => {
      const { secret } = request.params
      const owner = SECRET.test(secret) ? await calendarFeedOwner(db, hashFeedSecret(secret)) : undefined
      if (owner === undefined) throw new HttpFailure(404, "Not found")
      const at = now()
      const text = calendarText(await site(), await calendarReminders(db, owner, new Date(at).toISOString()), at)
      return reply
        .header("content-type", "text/calendar; charset=utf-8")
        .header("content-disposition", 'inline; filename="reminders.ics"')
        .header("cache-control", "private, no-cache")
        .send(text)
    }
  )
}
