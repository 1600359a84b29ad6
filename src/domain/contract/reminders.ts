import * as Schema from "effect/Schema"
import { CalendarFeed, NewReminder, Reminder, ReminderIdParam } from "../Reminder.ts"
import { dataResponse, endpoint, OkResponse } from "./endpoint.ts"

export const RemindersResponse = dataResponse(Schema.Array(Reminder))
export const ReminderResponse = Schema.Struct({ success: Schema.Boolean, data: Reminder, detail: Schema.optionalKey(Schema.String) })
export const ReminderParams = Schema.Struct({ id: ReminderIdParam })
export const CalendarFeedResponse = dataResponse(CalendarFeed)

/** Reminders of guide programmes, and the private calendar feed that lists them. */
export const remindersContract = {
  reminders: endpoint({
    method: "GET",
    path: "/api/reminders",
    response: RemindersResponse,
    access: "user",
    summary: "The signed-in viewer's reminders of programmes not yet ended, by start"
  }),
  createReminder: endpoint({
    method: "POST",
    path: "/api/reminders/create",
    body: NewReminder,
    response: ReminderResponse,
    access: "user",
    summary:
      "Mail a reminder `leadMinutes` before a programme of the guide starts (the stream's guide programme starting at `startTime`); " +
      "404 when there is no such programme, 409 once it has started; setting it again changes the lead"
  }),
  deleteReminder: endpoint({
    method: "POST",
    path: "/api/reminders/{id}/delete",
    params: ReminderParams,
    response: OkResponse,
    access: "user",
    summary: "Remove one of the viewer's reminders (one already gone answers success too)"
  }),
  calendarFeed: endpoint({
    method: "GET",
    path: "/api/reminders/calendar",
    response: CalendarFeedResponse,
    access: "user",
    summary: "Whether the viewer has a calendar feed, and since when (its address is shown only when it is made)"
  }),
  createCalendarFeed: endpoint({
    method: "POST",
    path: "/api/reminders/calendar/new",
    response: CalendarFeedResponse,
    access: "user",
    summary: "Make a new private calendar feed address (an .ics of the viewer's reminders); the one before stops working"
  }),
  revokeCalendarFeed: endpoint({
    method: "POST",
    path: "/api/reminders/calendar/revoke",
    response: OkResponse,
    access: "user",
    summary: "Turn the viewer's calendar feed off: its address stops working"
  })
} as const
