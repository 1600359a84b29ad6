import { fromPromise } from "xstate"
import { writeClipboardText } from "../adapters/clipboard/clipboard.ts"
import { viewerTimeZone } from "../adapters/time/timeZone.ts"
import { calendarFeedMachine } from "../machines/reminders/calendarFeedMachine.ts"
import { remindersMachine } from "../machines/reminders/remindersMachine.ts"
import type { FeatureWiring } from "./featureWiring.ts"
import { notifyVia } from "./notifyVia.ts"

/** The viewer's reminders (on the guide and their own page) and calendar feed, wired to their calls, the clipboard and the notifications. */
export const createReminders = ({ callApi, notifications }: FeatureWiring) => ({
  reminders: remindersMachine.provide({
    actors: {
      loadReminders: fromPromise(({ signal }) => callApi("reminders", { signal })),
      // the mail says the start in the zone the guide showed it in
      createReminder: fromPromise(({ input, signal }) =>
        callApi("createReminder", { body: { ...input, timeZone: viewerTimeZone() }, signal })
      ),
      deleteReminder: fromPromise(({ input, signal }) => callApi("deleteReminder", { params: { id: String(input.id) }, signal }))
    },
    actions: { notify: notifyVia(notifications) }
  }),
  calendarFeed: calendarFeedMachine.provide({
    actors: {
      loadFeed: fromPromise(({ signal }) => callApi("calendarFeed", { signal })),
      createFeed: fromPromise(({ signal }) => callApi("createCalendarFeed", { signal })),
      revokeFeed: fromPromise(({ signal }) => callApi("revokeCalendarFeed", { signal })),
      copyText: fromPromise(({ input }) => writeClipboardText(input.text))
    },
    actions: { notify: notifyVia(notifications) }
  })
})
