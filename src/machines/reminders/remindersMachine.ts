import { assign, fromPromise, setup } from "xstate"
import { type Answer, dataOf, isSuccess } from "../../domain/contract/answer.ts"
import {
  DEFAULT_LEAD_MINUTES,
  type LeadMinutes,
  type NewReminder,
  REMINDER_REMOVED,
  REMINDER_SET,
  REMINDERS_FAILED_MESSAGE,
  type Reminder
} from "../../domain/Reminder.ts"
import { failureHint, failureReason } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

export const REMINDER_NOT_SET = "The reminder could not be set"
export const REMINDER_NOT_REMOVED = "The reminder could not be removed"

/** A programme the viewer may set a reminder of, as the guide shows it. */
export interface RemindableProgramme {
  readonly streamId: number
  readonly startTime: string
  readonly title: string
  readonly channel: string
}

export type RemindersEvent =
  | { readonly type: "reminders.retry" }
  /** "Remind me" on a programme: choose how long before */
  | { readonly type: "reminder.ask"; readonly programme: RemindableProgramme }
  | { readonly type: "reminder.chooseLead"; readonly minutes: LeadMinutes }
  | { readonly type: "reminder.set" }
  | { readonly type: "reminder.cancel" }
  | { readonly type: "reminder.remove"; readonly id: number }

/** What a "Remind me" dialog holds while it is open. */
export interface ReminderDraft {
  readonly programme: RemindableProgramme
  readonly leadMinutes: LeadMinutes
  /** why the server refused it, shown in the dialog */
  readonly error: string | null
}

export interface RemindersContext {
  /** the viewer's reminders of programmes not yet ended, by start */
  readonly reminders: ReadonlyArray<Reminder>
  readonly draft: ReminderDraft | null
  /** the reminder being removed */
  readonly removing: number | null
  readonly error: string | null
}

const byStart = (a: Reminder, b: Reminder): number => Date.parse(a.startTime) - Date.parse(b.startTime) || a.id - b.id

/**
 * A viewer's reminders, where the guide and the reminders page show them: loaded once, set on a
 * programme with a lead time chosen in a dialog (10 minutes unless changed), and removed one at a
 * time. Each result is told as a notification; a refusal to set one stays in its dialog.
 */
export const remindersMachine = setup({
  types: {
    context: {} as RemindersContext,
    events: {} as RemindersEvent
  },
  actors: {
    loadReminders: fromPromise<Answer<"reminders">>(notProvided("loadReminders")),
    createReminder: fromPromise<Answer<"createReminder">, NewReminder>(notProvided("createReminder")),
    deleteReminder: fromPromise<Answer<"deleteReminder">, { readonly id: number }>(notProvided("deleteReminder"))
  },
  guards: {
    gotReminders: (_, answer: Answer<"reminders">) => isSuccess(answer),
    succeeded: (_, answer: Answer<"createReminder"> | Answer<"deleteReminder">) => isSuccess(answer)
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    keepReminders: assign((_, answer: Answer<"reminders">) => ({ reminders: dataOf(answer) ?? [], error: null })),
    keepFailure: assign((_, answer: Answer<"reminders">) => ({ error: `${REMINDERS_FAILED_MESSAGE} ${failureHint(answer)}` })),
    openDraft: assign((_, programme: RemindableProgramme) => ({
      draft: { programme, leadMinutes: DEFAULT_LEAD_MINUTES, error: null }
    })),
    keepLead: assign(({ context }, minutes: LeadMinutes) => ({
      draft: context.draft === null ? null : { ...context.draft, leadMinutes: minutes, error: null }
    })),
    closeDraft: assign({ draft: null }),
    keepRefusal: assign(({ context }, answer: Answer<"createReminder">) => ({
      draft: context.draft === null ? null : { ...context.draft, error: failureReason(answer) }
    })),
    keepSet: assign(({ context }, answer: Answer<"createReminder">) => {
      const saved = answer._tag === "ok" ? answer.body.data : undefined
      if (saved === undefined) return {}
      return { reminders: [...context.reminders.filter((reminder) => reminder.id !== saved.id), saved].sort(byStart) }
    }),
    startRemoving: assign((_, id: number) => ({ removing: id })),
    keepRemoved: assign(({ context }) => ({
      reminders: context.reminders.filter((reminder) => reminder.id !== context.removing),
      removing: null
    })),
    stopRemoving: assign({ removing: null })
  }
}).createMachine({
  id: "reminders",
  context: { reminders: [], draft: null, removing: null, error: null },
  type: "parallel",
  states: {
    list: {
      initial: "loading",
      states: {
        loading: {
          tags: ["loading"],
          invoke: {
            src: "loadReminders",
            onDone: [
              { guard: { type: "gotReminders", params: answerOf }, target: "ready", actions: { type: "keepReminders", params: answerOf } },
              { target: "failed", actions: { type: "keepFailure", params: answerOf } }
            ]
          }
        },
        ready: {},
        failed: {
          tags: ["failed"],
          on: { "reminders.retry": { target: "loading" } }
        }
      }
    },
    dialog: {
      initial: "closed",
      states: {
        closed: {
          on: {
            "reminder.ask": { target: "choosing", actions: { type: "openDraft", params: ({ event }) => event.programme } }
          }
        },
        choosing: {
          on: {
            "reminder.chooseLead": { actions: { type: "keepLead", params: ({ event }) => event.minutes } },
            "reminder.set": { target: "setting" },
            "reminder.cancel": { target: "closed", actions: "closeDraft" }
          }
        },
        setting: {
          tags: ["setting"],
          invoke: {
            src: "createReminder",
            input: ({ context }) => ({
              streamId: context.draft?.programme.streamId ?? 0,
              startTime: context.draft?.programme.startTime ?? "",
              leadMinutes: context.draft?.leadMinutes ?? DEFAULT_LEAD_MINUTES
            }),
            onDone: [
              {
                guard: { type: "succeeded", params: answerOf },
                target: "closed",
                actions: [
                  { type: "keepSet", params: answerOf },
                  "closeDraft",
                  { type: "notify", params: { tone: "success", title: REMINDER_SET, message: "" } }
                ]
              },
              { target: "choosing", actions: { type: "keepRefusal", params: answerOf } }
            ]
          }
        }
      }
    },
    removal: {
      initial: "idle",
      states: {
        idle: {
          on: {
            "reminder.remove": { target: "removing", actions: { type: "startRemoving", params: ({ event }) => event.id } }
          }
        },
        removing: {
          tags: ["removing"],
          invoke: {
            src: "deleteReminder",
            input: ({ context }) => ({ id: context.removing ?? 0 }),
            onDone: [
              {
                guard: { type: "succeeded", params: answerOf },
                target: "idle",
                actions: ["keepRemoved", { type: "notify", params: { tone: "success", title: REMINDER_REMOVED, message: "" } }]
              },
              {
                target: "idle",
                actions: [
                  "stopRemoving",
                  {
                    type: "notify",
                    params: ({ event }) => ({ tone: "error", title: REMINDER_NOT_REMOVED, message: failureReason(event.output) })
                  }
                ]
              }
            ]
          }
        }
      }
    }
  }
})
