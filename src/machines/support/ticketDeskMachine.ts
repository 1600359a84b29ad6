import { type ActorRefFrom, assign, fromPromise, raise, type SnapshotFrom, setup } from "xstate"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import type { Ticket } from "../../domain/Ticket.ts"
import { type DeskFilter, filterTickets } from "../../domain/TicketDesk.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { ticketStatusMachine } from "./ticketStatusMachine.ts"

export const DESK_FAILED_MESSAGE = "The tickets could not be loaded."

export type TicketDeskEvent =
  | { readonly type: "desk.retry" }
  | { readonly type: "filter.category"; readonly category: number | null }
  | { readonly type: "filter.search"; readonly search: string }
  | { readonly type: "ticket.open"; readonly id: number }
  | { readonly type: "ticket.close" }
  /** from the open ticket: its status changed or its author was answered */
  | { readonly type: "ticket.changed" }

export interface TicketDeskContext {
  readonly tickets: ReadonlyArray<Ticket>
  readonly filter: DeskFilter
  readonly openId: number | null
  readonly error: string | null
  /** when the list was last loaded, for the tickets' ages */
  readonly loadedAt: number
}

const loaded = (answer: Answer<"tickets">): ReadonlyArray<Ticket> | undefined => dataOf(answer)

/** /adminsupport (SPEC §2): every ticket by status, filtered and searched, one of them open in the modal. */
export const ticketDeskMachine = setup({
  types: {
    context: {} as TicketDeskContext,
    events: {} as TicketDeskEvent
  },
  actors: {
    loadTickets: fromPromise<Answer<"tickets">>(notProvided("loadTickets")),
    ticketStatus: ticketStatusMachine
  },
  guards: {
    loaded: (_, answer: Answer<"tickets">) => loaded(answer) !== undefined,
    isListed: ({ context }, id: number) => context.tickets.some((ticket) => ticket.id === id)
  },
  actions: {
    keepTickets: assign((_, answer: Answer<"tickets">) => ({ tickets: loaded(answer) ?? [], error: null, loadedAt: Date.now() })),
    keepFailure: assign((_, answer: Answer<"tickets">) => ({ error: `${DESK_FAILED_MESSAGE} ${failureHint(answer)}` })),
    keepOpen: assign((_, id: number | null) => ({ openId: id })),
    keepFilter: assign(({ context }, change: Partial<DeskFilter>) => ({ filter: { ...context.filter, ...change } })),
    reloadList: raise({ type: "ticket.changed" })
  }
}).createMachine({
  id: "ticketDesk",
  type: "parallel",
  context: { tickets: [], filter: { category: null, search: "" }, openId: null, error: null, loadedAt: 0 },
  on: {
    "filter.category": { actions: { type: "keepFilter", params: ({ event }) => ({ category: event.category }) } },
    "filter.search": { actions: { type: "keepFilter", params: ({ event }) => ({ search: event.search }) } }
  },
  states: {
    list: {
      initial: "loading",
      states: {
        loading: {
          tags: ["loading"],
          // a change made while the list loads may have missed it: load again from the start
          on: { "ticket.changed": { target: "loading", reenter: true } },
          invoke: {
            src: "loadTickets",
            onDone: [
              { guard: { type: "loaded", params: answerOf }, target: "loaded", actions: { type: "keepTickets", params: answerOf } },
              { target: "failed", actions: { type: "keepFailure", params: answerOf } }
            ]
          }
        },
        loaded: { on: { "ticket.changed": { target: "loading" } } },
        failed: { tags: ["failed"], on: { "desk.retry": { target: "loading" }, "ticket.changed": { target: "loading" } } }
      }
    },
    modal: {
      initial: "closed",
      states: {
        closed: {
          on: {
            "ticket.open": {
              guard: { type: "isListed", params: ({ event }) => event.id },
              target: "open",
              actions: { type: "keepOpen", params: ({ event }) => event.id }
            }
          }
        },
        open: {
          invoke: {
            id: "ticket",
            src: "ticketStatus",
            input: ({ context }) => ({
              ticket: context.tickets.find((ticket) => ticket.id === context.openId) ?? (context.tickets[0] as Ticket)
            })
          },
          // closing while a change or a reply is on its way stops waiting for it, and the server
          // may still have made it: the list is read again, so it shows what the server did
          on: { "ticket.close": { target: "closed", actions: [{ type: "keepOpen", params: null }, "reloadList"] } }
        }
      }
    }
  }
})

export type TicketDeskSnapshot = SnapshotFrom<typeof ticketDeskMachine>

export const selectDeskStatus = (snapshot: TicketDeskSnapshot): "loading" | "failed" | "loaded" =>
  snapshot.context.loadedAt === 0 && snapshot.hasTag("loading") ? "loading" : snapshot.hasTag("failed") ? "failed" : "loaded"
export const selectIsRefreshing = (snapshot: TicketDeskSnapshot): boolean => snapshot.hasTag("loading")
export const selectDeskError = (snapshot: TicketDeskSnapshot): string | null => snapshot.context.error
export const selectAllTickets = (snapshot: TicketDeskSnapshot): ReadonlyArray<Ticket> => snapshot.context.tickets
export const selectFilter = (snapshot: TicketDeskSnapshot): DeskFilter => snapshot.context.filter
export const selectLoadedAt = (snapshot: TicketDeskSnapshot): number => snapshot.context.loadedAt
export const selectShownTickets = (snapshot: TicketDeskSnapshot): ReadonlyArray<Ticket> =>
  filterTickets(snapshot.context.tickets, snapshot.context.filter)
/** the open ticket's own machine, while the modal is open */
export const selectOpenTicket = (snapshot: TicketDeskSnapshot): ActorRefFrom<typeof ticketStatusMachine> | undefined =>
  snapshot.matches({ modal: "open" }) ? (snapshot.children.ticket as ActorRefFrom<typeof ticketStatusMachine> | undefined) : undefined
