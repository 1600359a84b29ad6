import { DATE_LOCALE } from "../../domain/Dates.ts"
import { leadLabel, REMINDERS_ROUTE, reminderPlayerPath } from "../../domain/Reminder.ts"
import { type Mail, type MailSite, mail } from "../mail/mailFeature.ts"

/** What a reminder's mails say of it. */
export interface RemindedProgramme {
  readonly to: string
  readonly title: string
  /** the channel as the streams grid names it */
  readonly channel: string
  readonly streamId: number
  readonly startAt: string
  readonly leadMinutes: number
  /** the viewer's IANA zone, in which the start is written */
  readonly timeZone: string
}

const formats = new Map<string, { time: Intl.DateTimeFormat; day: Intl.DateTimeFormat }>()
const formatsIn = (timeZone: string) => {
  let found = formats.get(timeZone)
  if (found === undefined) {
    found = {
      time: new Intl.DateTimeFormat(DATE_LOCALE, { timeZone, hour: "2-digit", minute: "2-digit", timeZoneName: "short" }),
      day: new Intl.DateTimeFormat(DATE_LOCALE, { timeZone, weekday: "long", day: "numeric", month: "long" })
    }
    formats.set(timeZone, found)
  }
  return found
}

/** "20:00 CET on Saturday 28 November", in the viewer's zone (UTC when it is one this runtime does not know). */
export function startText(iso: string, timeZone: string): string {
  let zone = formatsIn("UTC")
  try {
    zone = formatsIn(timeZone)
  } catch {
    // a zone the browser knew and this server does not: UTC, named as such, is still right
  }
  const at = new Date(iso)
  return `${zone.time.format(at)} on ${zone.day.format(at)}`
}

const base = (publicUrl: string): string => publicUrl.replace(/\/+$/, "")

/** The reminder itself: the programme, its channel and start, and a link that plays it (from its start when the viewer is late). */
export function reminderMail(site: MailSite, programme: RemindedProgramme): Mail {
  const title = mail.oneLine(programme.title)
  const channel = mail.oneLine(programme.channel)
  const link = `${base(site.publicUrl)}${reminderPlayerPath(programme.streamId, programme.startAt)}`
  return mail.compose({ ...site, to: programme.to }, "reminder", `Starting soon: ${title} on ${channel}`, [
    `"${title}" starts at ${startText(programme.startAt, programme.timeZone)} on ${channel}.`,
    { link, label: `Watch on ${site.siteName}` },
    "Arriving late? The link plays the programme from its start while the channel still holds it, and live after that.",
    `You asked for this reminder ${leadLabel(programme.leadMinutes)} the start. Your reminders are at ${base(site.publicUrl)}${REMINDERS_ROUTE}.`
  ])
}

/** A guide refresh took the programme out: its reminder is gone, and the viewer is told once. */
export function reminderDroppedMail(site: MailSite, programme: RemindedProgramme): Mail {
  const title = mail.oneLine(programme.title)
  const channel = mail.oneLine(programme.channel)
  return mail.compose({ ...site, to: programme.to }, "reminder-dropped", `No longer in the guide: ${title} on ${channel}`, [
    `"${title}" on ${channel}, which was to start at ${startText(programme.startAt, programme.timeZone)}, ` +
      "is no longer in the programme guide, so you will get no reminder of it.",
    `See what is on, and set another reminder, at ${base(site.publicUrl)}/stream-schedule.`
  ])
}
