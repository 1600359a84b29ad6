import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, dataOf, isSuccess } from "../../domain/contract/answer.ts"
import { COPIED_MESSAGE, COPY_FAILED_MESSAGE } from "../../domain/Invitation.ts"
import { CALENDAR_FEED_FAILED_MESSAGE, CALENDAR_FEED_REVOKED, type CalendarFeed } from "../../domain/Reminder.ts"
import { failureHint, failureReason } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

export const FEED_NOT_MADE = "The calendar feed could not be made"
export const FEED_NOT_REVOKED = "The calendar feed could not be turned off"
export const FEED_MADE = "Calendar feed ready"

export type CalendarFeedEvent =
  | { readonly type: "feed.retry" }
  /** make a feed address (a new one replaces the old) */
  | { readonly type: "feed.create" }
  | { readonly type: "feed.revoke" }
  | { readonly type: "feed.copy" }

export interface CalendarFeedContext {
  readonly createdAt: string | null
  /** the address, known only right after it was made: the server keeps its hash alone */
  readonly url: string | null
  readonly error: string | null
}

type FeedAnswer = Answer<"calendarFeed"> | Answer<"createCalendarFeed">
const feedOf = (answer: FeedAnswer): CalendarFeed | undefined => dataOf(answer)

/**
 * The reminders page's private calendar feed: none, or one made at some time. Making one shows its
 * address once, to copy into a calendar app; making another replaces it; turning it off ends it.
 */
export const calendarFeedMachine = setup({
  types: {
    context: {} as CalendarFeedContext,
    events: {} as CalendarFeedEvent
  },
  actors: {
    loadFeed: fromPromise<Answer<"calendarFeed">>(notProvided("loadFeed")),
    createFeed: fromPromise<Answer<"createCalendarFeed">>(notProvided("createFeed")),
    revokeFeed: fromPromise<Answer<"revokeCalendarFeed">>(notProvided("revokeFeed")),
    copyText: fromPromise<void, { readonly text: string }>(notProvided("copyText"))
  },
  guards: {
    isActive: (_, answer: FeedAnswer) => feedOf(answer)?.active === true,
    succeeded: (_, answer: FeedAnswer | Answer<"revokeCalendarFeed">) => isSuccess(answer),
    hasUrl: ({ context }) => context.url !== null,
    hasFeed: ({ context }) => context.createdAt !== null
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    keepFeed: assign((_, answer: FeedAnswer) => {
      const feed = feedOf(answer)
      return { createdAt: feed?.createdAt ?? null, url: feed?.url ?? null, error: null }
    }),
    forgetFeed: assign({ createdAt: null, url: null }),
    keepFailure: assign((_, answer: FeedAnswer) => ({ error: `${CALENDAR_FEED_FAILED_MESSAGE} ${failureHint(answer)}` }))
  }
}).createMachine({
  id: "calendarFeed",
  context: { createdAt: null, url: null, error: null },
  initial: "loading",
  states: {
    loading: {
      tags: ["loading"],
      invoke: {
        src: "loadFeed",
        onDone: [
          { guard: { type: "isActive", params: answerOf }, target: "active", actions: { type: "keepFeed", params: answerOf } },
          { guard: { type: "succeeded", params: answerOf }, target: "none", actions: { type: "keepFeed", params: answerOf } },
          { target: "failed", actions: { type: "keepFailure", params: answerOf } }
        ]
      }
    },
    failed: {
      tags: ["failed"],
      on: { "feed.retry": { target: "loading" } }
    },
    none: {
      on: { "feed.create": { target: "creating" } }
    },
    creating: {
      tags: ["busy"],
      invoke: {
        src: "createFeed",
        onDone: [
          {
            guard: { type: "isActive", params: answerOf },
            target: "active",
            actions: [
              { type: "keepFeed", params: answerOf },
              { type: "notify", params: { tone: "success", title: FEED_MADE, message: "Copy its address into your calendar app now." } }
            ]
          },
          {
            target: "settled",
            actions: {
              type: "notify",
              params: ({ event }) => ({ tone: "error", title: FEED_NOT_MADE, message: failureReason(event.output) })
            }
          }
        ]
      }
    },
    // where a failed change leaves the feed: as the last answer said it was
    settled: {
      always: [{ guard: "hasFeed", target: "active" }, { target: "none" }]
    },
    active: {
      on: {
        "feed.create": { target: "creating" },
        "feed.revoke": { target: "revoking" },
        "feed.copy": { guard: "hasUrl", target: "copying" }
      }
    },
    copying: {
      invoke: {
        src: "copyText",
        input: ({ context }) => ({ text: context.url ?? "" }),
        onDone: { target: "active", actions: { type: "notify", params: { tone: "success", title: COPIED_MESSAGE, message: "" } } },
        onError: { target: "active", actions: { type: "notify", params: { tone: "error", title: COPY_FAILED_MESSAGE, message: "" } } }
      }
    },
    revoking: {
      tags: ["busy"],
      invoke: {
        src: "revokeFeed",
        onDone: [
          {
            guard: { type: "succeeded", params: answerOf },
            target: "none",
            actions: ["forgetFeed", { type: "notify", params: { tone: "success", title: CALENDAR_FEED_REVOKED, message: "" } }]
          },
          {
            target: "active",
            actions: {
              type: "notify",
              params: ({ event }) => ({ tone: "error", title: FEED_NOT_REVOKED, message: failureReason(event.output) })
            }
          }
        ]
      }
    }
  }
})

export type CalendarFeedSnapshot = SnapshotFrom<typeof calendarFeedMachine>
export type CalendarFeedStatus = "loading" | "failed" | "none" | "active"

export const selectFeedStatus = (snapshot: CalendarFeedSnapshot): CalendarFeedStatus =>
  snapshot.hasTag("loading")
    ? "loading"
    : snapshot.hasTag("failed")
      ? "failed"
      : snapshot.context.createdAt === null && !snapshot.matches("revoking")
        ? "none"
        : "active"
export const selectFeedBusy = (snapshot: CalendarFeedSnapshot): boolean => snapshot.hasTag("busy")
export const selectFeed = (snapshot: CalendarFeedSnapshot): CalendarFeedContext => snapshot.context
