import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { registerCalendarRoute } from "./calendarFeed.ts"
import { reminderHandlers } from "./reminderHandlers.ts"
import { type ReminderJobOptions, startReminderJob } from "./reminderJob.ts"

export interface RemindersFeatureOptions {
  /** Timing of the reminder job (every 30 s), which runs until the app closes. */
  readonly job?: Pick<ReminderJobOptions, "everyMs" | "firstAfterMs" | "holder">
}

/**
 * Reminders of guide programmes: set and removed by viewers, mailed before the start by one
 * instance at a time, following the guide when a refresh moves or drops a programme, and listed
 * in each account's private calendar feed.
 */
export function remindersFeature({ db, now, config, log, mailWorker }: FeatureDeps, options: RemindersFeatureOptions = {}): ServerFeature {
  const site = async () => ({ siteName: (await siteSettings.inEffect(db)).siteName, publicUrl: config.publicUrl })
  const job = startReminderJob({
    db,
    now,
    site,
    mailWorker,
    ...options.job,
    onDone: (pass) => {
      if (pass.moved + pass.dropped + pass.sent > 0)
        log.info(`reminders: ${pass.sent} mailed, ${pass.moved} moved with their programme, ${pass.dropped} dropped from the guide`)
    },
    onError: (error) => log.warn({ err: error }, "reminder pass failed; the next pass tries again")
  })
  return {
    handlers: reminderHandlers({ db, now, publicUrl: config.publicUrl, remindSoon: () => void job.runNow() }),
    jobs: [job],
    async limitedRoutes(scope) {
      registerCalendarRoute(scope, { db, now, site })
    }
  }
}
