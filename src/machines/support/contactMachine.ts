import { assign, fromCallback, fromPromise, raise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { type NewTicket, type OwnTicket, type PlayerContext, playerContextFromQuery } from "../../domain/Ticket.ts"
import { detailOf, failureHint, isFailure } from "../shared/apiResult.ts"
import { changeField } from "../shared/formFields.ts"
import { notProvided } from "../shared/notProvided.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"
import {
  type ContactErrors,
  type ContactField,
  type ContactValues,
  checkTicket,
  EMPTY_VALUES,
  firstInvalidField,
  isTicketAccepted,
  TICKET_FAILURE_TITLE,
  TICKET_SUCCESS_TITLE,
  TICKETS_FAILED_MESSAGE,
  type TicketAnswer,
  ticketFailureMessage,
  valuesFor
} from "./ticketForm.ts"

export type ContactEvent =
  | { readonly type: "contact.change"; readonly field: ContactField; readonly value: string }
  | { readonly type: "contact.submit" }
  | { readonly type: "attachment.remove" }
  | { readonly type: "tickets.retry" }
  | { readonly type: "tickets.reload" }
  | { readonly type: "settings.changed"; readonly chatUrl: string }

export interface ContactInput {
  /** the page's query string: a 'Report a problem' link carries a player context in it */
  readonly search: string
}

export interface ContactContext {
  readonly values: ContactValues
  readonly fieldErrors: ContactErrors
  /** what the viewer brought from a player's error box; sent with the ticket unless they remove it */
  readonly attachment: PlayerContext | null
  /** why the last ticket was not sent */
  readonly failure: string | null
  /** the viewer's own tickets, newest first */
  readonly tickets: ReadonlyArray<OwnTicket>
  readonly ticketsError: string | null
  /** the chat community's address (site setting `chatUrl`); "" for none */
  readonly chatUrl: string
}

type TicketsAnswer = CallResult<"myTickets"> | undefined

/** Only a web address becomes the chat link; anything else in the setting shows no link at all. */
const webAddress = (url: string): string => (/^https?:\/\/\S+$/i.test(url.trim()) ? url.trim() : "")

const loadedTickets = (answer: TicketsAnswer): ReadonlyArray<OwnTicket> | undefined =>
  !isFailure(answer) && answer.success ? answer.data : undefined

/** /contactus: the ticket form, with a player context a viewer may attach, and the viewer's own tickets. */
export const contactMachine = setup({
  types: {
    context: {} as ContactContext,
    events: {} as ContactEvent,
    input: {} as ContactInput
  },
  actors: {
    submitTicket: fromPromise<TicketAnswer, NewTicket>(notProvided("submitTicket")),
    loadTickets: fromPromise<TicketsAnswer>(notProvided("loadTickets")),
    /** tells the chat address now and whenever site settings change (`settings.changed`) */
    siteSettings: fromCallback<ContactEvent>(notProvided("siteSettings"))
  },
  guards: {
    isValid: ({ context }) => checkTicket(context.values, context.attachment).ok,
    accepted: (_, answer: TicketAnswer) => isTicketAccepted(answer),
    loaded: (_, answer: TicketsAnswer) => loadedTickets(answer) !== undefined
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    /** the page's address stops carrying the report once it is sent or removed, so a reload attaches nothing */
    forgetReportAddress: () => {},
    setField: assign(({ context }, params: { readonly field: ContactField; readonly value: string }) =>
      changeField(context, params.field, params.value)
    ),
    showFieldErrors: assign(({ context }) => {
      const checked = checkTicket(context.values, context.attachment)
      return { fieldErrors: checked.ok ? {} : checked.errors }
    }),
    removeAttachment: assign({ attachment: null }),
    clearForm: assign({ values: EMPTY_VALUES, fieldErrors: {}, attachment: null, failure: null }),
    keepFailure: assign((_, answer: TicketAnswer) => ({ failure: ticketFailureMessage(answer) })),
    clearFailure: assign({ failure: null }),
    reloadTickets: raise({ type: "tickets.reload" }),
    keepTickets: assign((_, answer: TicketsAnswer) => ({ tickets: loadedTickets(answer) ?? [], ticketsError: null })),
    keepTicketsError: assign((_, answer: TicketsAnswer) => ({ ticketsError: `${TICKETS_FAILED_MESSAGE} ${failureHint(answer)}` })),
    keepChatUrl: assign((_, chatUrl: string) => ({ chatUrl: webAddress(chatUrl) }))
  }
}).createMachine({
  id: "contact",
  context: ({ input }) => {
    const attachment = playerContextFromQuery(input.search) ?? null
    return { values: valuesFor(attachment), fieldErrors: {}, attachment, failure: null, tickets: [], ticketsError: null, chatUrl: "" }
  },
  invoke: { src: "siteSettings" },
  on: {
    "settings.changed": { actions: { type: "keepChatUrl", params: ({ event }) => event.chatUrl } }
  },
  type: "parallel",
  states: {
    form: {
      initial: "editing",
      states: {
        editing: {
          on: {
            "contact.change": { actions: { type: "setField", params: ({ event }) => event } },
            "contact.submit": { target: "validating" },
            "attachment.remove": { actions: ["removeAttachment", "forgetReportAddress"] }
          }
        },
        validating: {
          always: [
            { guard: "isValid", target: "submitting" },
            { target: "editing", actions: "showFieldErrors" }
          ]
        },
        submitting: {
          tags: ["busy"],
          entry: "clearFailure",
          invoke: {
            src: "submitTicket",
            // `isValid` let us in here, so the ticket checks out
            input: ({ context }) => {
              const checked = checkTicket(context.values, context.attachment)
              return checked.ok ? checked.ticket : { type: 5, subject: "", description: "" }
            },
            onDone: [
              {
                guard: { type: "accepted", params: ({ event }) => event.output },
                target: "submitted",
                actions: [
                  "clearForm",
                  "forgetReportAddress",
                  "reloadTickets",
                  {
                    type: "notify",
                    params: ({ event }) => ({ tone: "success", title: TICKET_SUCCESS_TITLE, message: detailOf(event.output) ?? "" })
                  }
                ]
              },
              {
                target: "failed",
                actions: [
                  { type: "keepFailure", params: ({ event }) => event.output },
                  {
                    type: "notify",
                    params: ({ event }) => ({ tone: "error", title: TICKET_FAILURE_TITLE, message: ticketFailureMessage(event.output) })
                  }
                ]
              }
            ],
            onError: {
              target: "failed",
              actions: [
                { type: "keepFailure", params: () => undefined },
                { type: "notify", params: () => ({ tone: "error", title: TICKET_FAILURE_TITLE, message: ticketFailureMessage(undefined) }) }
              ]
            }
          }
        },
        submitted: {
          on: {
            "contact.change": { target: "editing", actions: { type: "setField", params: ({ event }) => event } },
            "contact.submit": { target: "validating" }
          }
        },
        // what was typed stays, so sending again is one press away
        failed: {
          on: {
            "contact.change": { actions: { type: "setField", params: ({ event }) => event } },
            "contact.submit": { target: "validating" },
            "attachment.remove": { actions: ["removeAttachment", "forgetReportAddress"] }
          }
        }
      }
    },
    tickets: {
      initial: "loading",
      states: {
        loading: {
          tags: ["ticketsLoading"],
          on: { "tickets.reload": { target: "loading", reenter: true } },
          invoke: {
            src: "loadTickets",
            onDone: [
              {
                guard: { type: "loaded", params: ({ event }) => event.output },
                target: "loaded",
                actions: { type: "keepTickets", params: ({ event }) => event.output }
              },
              { target: "unavailable", actions: { type: "keepTicketsError", params: ({ event }) => event.output } }
            ],
            onError: { target: "unavailable", actions: { type: "keepTicketsError", params: () => undefined } }
          }
        },
        loaded: {
          on: { "tickets.reload": { target: "refreshing" } }
        },
        // the list stays in view while a new ticket is fetched into it
        refreshing: {
          tags: ["ticketsRefreshing"],
          on: { "tickets.reload": { target: "refreshing", reenter: true } },
          invoke: {
            src: "loadTickets",
            onDone: [
              {
                guard: { type: "loaded", params: ({ event }) => event.output },
                target: "loaded",
                actions: { type: "keepTickets", params: ({ event }) => event.output }
              },
              { target: "unavailable", actions: { type: "keepTicketsError", params: ({ event }) => event.output } }
            ],
            onError: { target: "unavailable", actions: { type: "keepTicketsError", params: () => undefined } }
          }
        },
        unavailable: {
          on: { "tickets.retry": { target: "loading" }, "tickets.reload": { target: "loading" } }
        }
      }
    }
  }
})

export type ContactSnapshot = SnapshotFrom<typeof contactMachine>
export type FormStatus = "editing" | "submitting" | "submitted" | "failed"
export type TicketsStatus = "loading" | "loaded" | "failed"

export const selectFormStatus = (snapshot: ContactSnapshot): FormStatus =>
  snapshot.hasTag("busy")
    ? "submitting"
    : snapshot.matches({ form: "submitted" })
      ? "submitted"
      : snapshot.matches({ form: "failed" })
        ? "failed"
        : "editing"
export const selectValues = (snapshot: ContactSnapshot): ContactValues => snapshot.context.values
export const selectFieldErrors = (snapshot: ContactSnapshot): ContactErrors => snapshot.context.fieldErrors
/** The field to focus after a submit the rules refused. */
export const selectFirstInvalidField = (snapshot: ContactSnapshot): ContactField | undefined =>
  firstInvalidField(snapshot.context.fieldErrors)
export const selectAttachment = (snapshot: ContactSnapshot): PlayerContext | null => snapshot.context.attachment
export const selectFailure = (snapshot: ContactSnapshot): string | null => snapshot.context.failure
export const selectChatUrl = (snapshot: ContactSnapshot): string => snapshot.context.chatUrl
export const selectTicketsStatus = (snapshot: ContactSnapshot): TicketsStatus =>
  snapshot.hasTag("ticketsLoading") ? "loading" : snapshot.matches({ tickets: "unavailable" }) ? "failed" : "loaded"
export const selectIsRefreshingTickets = (snapshot: ContactSnapshot): boolean => snapshot.hasTag("ticketsRefreshing")
export const selectTickets = (snapshot: ContactSnapshot): ReadonlyArray<OwnTicket> => snapshot.context.tickets
export const selectTicketsError = (snapshot: ContactSnapshot): string | null => snapshot.context.ticketsError
