import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { shouldShowAnnouncement } from "../../domain/Announcement.ts"
import type { Answer } from "../../domain/contract/answer.ts"
import { notProvided } from "../shared/notProvided.ts"

/** The latest announcement together with the token this browser last closed. */
export interface LatestAnnouncement {
  readonly answer: Answer<"announcement">
  readonly lastSeenToken: string | null
}

export interface ShownAnnouncement {
  readonly token: string
  readonly title: string
  readonly text: string
}

export type AnnouncementEvent = { readonly type: "announcement.close" }

const toShow = ({ answer, lastSeenToken }: LatestAnnouncement): ShownAnnouncement | null =>
  answer._tag === "ok" && shouldShowAnnouncement(answer.body, lastSeenToken)
    ? { token: answer.body.token ?? "", title: answer.body.title ?? "", text: answer.body.text ?? "" }
    : null

export const announcementMachine = setup({
  types: {
    context: {} as { readonly announcement: ShownAnnouncement | null },
    events: {} as AnnouncementEvent
  },
  actors: {
    loadLatest: fromPromise<LatestAnnouncement>(notProvided("loadLatest"))
  },
  guards: {
    isNew: (_, latest: LatestAnnouncement) => toShow(latest) !== null
  },
  actions: {
    keepAnnouncement: assign((_, latest: LatestAnnouncement) => ({ announcement: toShow(latest) })),
    /** Stores the token so the same announcement is not shown again in this browser. */
    rememberAnnouncement: (_, _params: { readonly token: string }) => {}
  }
}).createMachine({
  id: "announcement",
  context: { announcement: null },
  initial: "loading",
  states: {
    loading: {
      invoke: {
        src: "loadLatest",
        onDone: [
          {
            guard: { type: "isNew", params: ({ event }) => event.output },
            target: "shown",
            actions: { type: "keepAnnouncement", params: ({ event }) => event.output }
          },
          { target: "hidden" }
        ],
        // an announcement is a nicety: should reading the browser's stored token fail, the page goes on without it
        onError: { target: "hidden" }
      }
    },
    shown: {
      on: {
        "announcement.close": {
          target: "hidden",
          actions: { type: "rememberAnnouncement", params: ({ context }) => ({ token: context.announcement?.token ?? "" }) }
        }
      }
    },
    hidden: {}
  }
})

export type AnnouncementSnapshot = SnapshotFrom<typeof announcementMachine>

export const selectShownAnnouncement = (snapshot: AnnouncementSnapshot): ShownAnnouncement | null =>
  snapshot.matches("shown") ? snapshot.context.announcement : null
