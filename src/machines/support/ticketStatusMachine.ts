import { assign, fromPromise, type SnapshotFrom, sendParent, setup } from "xstate"
import type { Answer } from "../../domain/contract/answer.ts"
import type { Ticket, TicketStatus } from "../../domain/Ticket.ts"
import { REPLY_FAILED, REPLY_MESSAGE_REQUIRED, REPLY_SENT } from "../../domain/TicketDesk.ts"
import { failureReason, isAccepted } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { eventOf, fromAnswer } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

export const STATUS_FAILED_TITLE = "The status could not be changed"

export interface TicketStatusInput {
  readonly ticket: Ticket
}

export interface StatusChange {
  readonly ticketId: number
  readonly newStatus: TicketStatus
}

export interface Reply {
  readonly userId: number
  readonly ticketId: number
  readonly message: string
}

export type TicketStatusEvent =
  | { readonly type: "status.choose"; readonly status: TicketStatus }
  | { readonly type: "reply.change"; readonly text: string }
  | { readonly type: "reply.send" }

export interface TicketStatusContext {
  readonly ticket: Ticket
  readonly status: TicketStatus
  /** the status asked for while the change is on its way */
  readonly requested: TicketStatus | null
  readonly reply: string
  readonly replyError: string | null
}

const statusFailure = (answer: Answer<"updateTicket">): NotificationContent => ({
  tone: "error",
  title: STATUS_FAILED_TITLE,
  message: failureReason(answer)
})

const KEEP_REPLY = { actions: { type: "keepReply", params: eventOf } } as const

/**
 * One ticket open on the desk (SPEC §2, §4): its status set to another one (the same one does
 * nothing), and an email answer to its author. The desk hears of every status change.
 */
export const ticketStatusMachine = setup({
  types: {
    context: {} as TicketStatusContext,
    events: {} as TicketStatusEvent,
    input: {} as TicketStatusInput
  },
  actors: {
    updateTicket: fromPromise<Answer<"updateTicket">, StatusChange>(notProvided("updateTicket")),
    sendReply: fromPromise<Answer<"replyToTicket">, Reply>(notProvided("sendReply"))
  },
  guards: {
    isOtherStatus: ({ context }, status: TicketStatus) => status !== context.status,
    hasReply: ({ context }) => context.reply.trim() !== "",
    // a status change and a reply both answer with a result code (SPEC §4)
    accepted: (_, answer: Answer<"updateTicket"> | Answer<"replyToTicket">) => isAccepted(answer)
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    requestStatus: assign((_, status: TicketStatus) => ({ requested: status })),
    keepRequested: assign(({ context }) => ({ status: context.requested ?? context.status, requested: null })),
    dropRequested: assign({ requested: null }),
    tellDesk: sendParent({ type: "ticket.changed" }),
    keepReply: assign((_, { text }: { readonly text: string }) => ({ reply: text, replyError: null })),
    requireReply: assign({ replyError: REPLY_MESSAGE_REQUIRED }),
    clearReply: assign({ reply: "", replyError: null })
  }
}).createMachine({
  id: "ticketStatus",
  context: ({ input }) => ({ ticket: input.ticket, status: input.ticket.status, requested: null, reply: "", replyError: null }),
  initial: "idle",
  states: {
    idle: {
      on: {
        "status.choose": {
          guard: { type: "isOtherStatus", params: ({ event }) => event.status },
          target: "updating",
          actions: { type: "requestStatus", params: ({ event }) => event.status }
        },
        "reply.change": KEEP_REPLY,
        "reply.send": [{ guard: "hasReply", target: "replying" }, { actions: "requireReply" }]
      }
    },
    updating: {
      ...form.submission<TicketStatusContext>()({
        src: "updateTicket",
        input: ({ context }) => ({ ticketId: context.ticket.id, newStatus: context.requested ?? context.status }),
        accepted: { target: "idle", actions: ["keepRequested", "tellDesk"] },
        failed: { target: "idle", actions: ["dropRequested", { type: "notify", params: fromAnswer(statusFailure) }] }
      }),
      // the reply may be written while the status travels
      on: { "reply.change": KEEP_REPLY }
    },
    replying: form.submission<TicketStatusContext>()({
      src: "sendReply",
      input: ({ context }) => ({ userId: context.ticket.user__id, ticketId: context.ticket.id, message: context.reply }),
      accepted: { target: "idle", actions: ["clearReply", "tellDesk", { type: "notify", params: { tone: "success", ...REPLY_SENT } }] },
      // what was written stays, to send again
      failed: { target: "idle", actions: { type: "notify", params: { tone: "error", ...REPLY_FAILED } } }
    })
  }
})

export type TicketStatusSnapshot = SnapshotFrom<typeof ticketStatusMachine>
export const selectTicket = (snapshot: TicketStatusSnapshot): Ticket => snapshot.context.ticket
export const selectStatus = (snapshot: TicketStatusSnapshot): TicketStatus => snapshot.context.status
/** the status on its way to the server, shown as chosen while it travels */
export const selectRequested = (snapshot: TicketStatusSnapshot): TicketStatus | null => snapshot.context.requested
export const selectReply = (snapshot: TicketStatusSnapshot) => ({ text: snapshot.context.reply, error: snapshot.context.replyError })
export const selectIsBusy = (snapshot: TicketStatusSnapshot): boolean => snapshot.hasTag("busy")
