import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { type NewTicket, streamRequestTicket, TicketCategory } from "../../domain/Ticket.ts"
import { isAccepted } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { fromAnswer } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

export const REQUEST_SUCCESS: NotificationContent = {
  tone: "success",
  title: "Success!",
  message: "Your stream request has been submitted!"
}
export const REQUEST_FAILURE_TITLE = "Something went wrong"

/** The server's own words, when it had any. */
const requestFailure = (answer: Answer<"createTicket">): NotificationContent => ({
  tone: "error",
  title: REQUEST_FAILURE_TITLE,
  message: detailOf(answer) ?? ""
})

export type StreamRequestEvent =
  | { readonly type: "request.change"; readonly text: string }
  | { readonly type: "request.submit" }
  | { readonly type: "request.cancel" }

/** The 'Request a stream' modal: a stream request is a ticket (SPEC §3); it ends sent or cancelled. */
export const streamRequestMachine = setup({
  types: {
    context: {} as { readonly text: string },
    events: {} as StreamRequestEvent
  },
  actors: {
    submitTicket: fromPromise<Answer<"createTicket">, NewTicket>(notProvided("submitTicket"))
  },
  guards: {
    hasText: ({ context }) => streamRequestTicket(context.text) !== undefined,
    accepted: (_, answer: Answer<"createTicket">) => isAccepted(answer)
  },
  actions: {
    notify: (_, _params: NotificationContent) => {},
    setText: assign((_, params: { readonly text: string }) => ({ text: params.text }))
  }
}).createMachine({
  id: "streamRequest",
  context: { text: "" },
  initial: "editing",
  states: {
    editing: {
      on: {
        "request.change": { actions: { type: "setText", params: ({ event }) => ({ text: event.text }) } },
        // SPEC §5: submitting an empty request does nothing
        "request.submit": { guard: "hasText", target: "sending" },
        "request.cancel": { target: "cancelled" }
      }
    },
    sending: {
      ...form.submission<{ readonly text: string }>()({
        src: "submitTicket",
        // `hasText` let us in here, so the ticket exists; the fallback only satisfies the types
        input: ({ context }) => streamRequestTicket(context.text) ?? { type: TicketCategory.STREAM_SERVICE, subject: "", description: "" },
        accepted: { target: "sent", actions: { type: "notify", params: REQUEST_SUCCESS } },
        failed: { target: "editing", actions: { type: "notify", params: fromAnswer(requestFailure) } }
      }),
      // a request that hangs must not hold the dialog: closing it gives up waiting
      on: { "request.cancel": { target: "cancelled" } }
    },
    sent: { type: "final" },
    cancelled: { type: "final" }
  }
})

export type StreamRequestSnapshot = SnapshotFrom<typeof streamRequestMachine>

export const selectRequestText = (snapshot: StreamRequestSnapshot): string => snapshot.context.text
export const selectIsSendingRequest = (snapshot: StreamRequestSnapshot): boolean => snapshot.hasTag("busy")
