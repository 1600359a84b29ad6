import { assign, fromCallback, fromPromise, raise, type SnapshotFrom, setup } from "xstate"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import { type NewTicket, type OwnTicket, type PlayerContext, playerContextFromQuery } from "../../domain/Ticket.ts"
import { failureHint, isAccepted } from "../shared/answer.ts"
import * as form from "../shared/form.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf, eventOf, fromAnswer } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"
import {
  type ContactErrors,
  type ContactField,
  type ContactValues,
  checkTicket,
  EMPTY_VALUES,
  firstInvalidField,
  TICKETS_FAILED_MESSAGE,
  ticketFailureMessage,
  ticketNotSent,
  ticketSent,
  valuesFor
} from "./ticketForm.ts"

export type ContactEvent =
  | form.Event<"contact", ContactField>
  | { readonly type: "attachment.remove" }
  | { readonly type: "tickets.retry" }
  | { readonly type: "tickets.reload" }
  | { readonly type: "settings.changed"; readonly chatUrl: string }

export interface ContactInput {
  /** the page's query string: a 'Report a problem' link carries a player context in it */
  readonly search: string
}

/** The ticket form (its `alert` says why the last ticket was not sent) and the page around it. */
export interface ContactContext extends form.Context<ContactField> {
  /** what the viewer brought from a player's error box; sent with the ticket unless they remove it */
  readonly attachment: PlayerContext | null
  /** the viewer's own tickets, newest first */
  readonly tickets: ReadonlyArray<OwnTicket>
  readonly ticketsError: string | null
  /** the chat community's address (site setting `chatUrl`); "" for none */
  readonly chatUrl: string
}

/** Only a web address becomes the chat link; anything else in the setting shows no link at all. */
const webAddress = (url: string): string => (/^https?:\/\/\S+$/i.test(url.trim()) ? url.trim() : "")

const loadedTickets = (answer: Answer<"myTickets">): ReadonlyArray<OwnTicket> | undefined => dataOf(answer)

const contactSetup = setup({
  types: {
    context: {} as ContactContext,
    events: {} as ContactEvent,
    input: {} as ContactInput
  },
  actors: {
    submitTicket: fromPromise<Answer<"createTicket">, NewTicket>(notProvided("submitTicket")),
    loadTickets: fromPromise<Answer<"myTickets">>(notProvided("loadTickets")),
    /** tells the chat address now and whenever site settings change (`settings.changed`) */
    siteSettings: fromCallback<ContactEvent>(notProvided("siteSettings"))
  },
  guards: {
    isValid: ({ context }) => checkTicket(context.values, context.attachment).ok,
    accepted: (_, answer: Answer<"createTicket">) => isAccepted(answer),
    loaded: (_, answer: Answer<"myTickets">) => loadedTickets(answer) !== undefined
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    /** the page's address stops carrying the report once it is sent or removed, so a reload attaches nothing */
    forgetReportAddress: () => {},
    setField: form.setField(),
    showFieldErrors: assign(({ context }) => {
      const checked = checkTicket(context.values, context.attachment)
      return { fieldErrors: checked.ok ? {} : checked.errors }
    }),
    // the rules passed, so no message of an earlier submit or answer still applies
    clearMessages: form.clearMessages(),
    removeAttachment: assign({ attachment: null }),
    clearForm: assign({ values: EMPTY_VALUES, fieldErrors: {}, attachment: null, alert: null }),
    keepFailure: assign((_, answer: Answer<"createTicket">) => ({ alert: ticketFailureMessage(answer) })),
    reloadTickets: raise({ type: "tickets.reload" }),
    keepTickets: assign((_, answer: Answer<"myTickets">) => ({ tickets: loadedTickets(answer) ?? [], ticketsError: null })),
    keepTicketsError: assign((_, answer: Answer<"myTickets">) => ({ ticketsError: `${TICKETS_FAILED_MESSAGE} ${failureHint(answer)}` })),
    keepChatUrl: assign((_, chatUrl: string) => ({ chatUrl: webAddress(chatUrl) }))
  }
})

const SET_FIELD = { type: "setField", params: eventOf } as const
const REMOVE_ATTACHMENT = { actions: ["removeAttachment", "forgetReportAddress"] } as const
/** A submit once the answer is in: sent when the rules pass, or back to editing with each field's message in place of the answer's. */
const SUBMIT_AGAIN = [
  { guard: "isValid", target: "submitting", actions: "clearMessages" },
  { target: "editing", actions: "showFieldErrors" }
] as const

/** One request for the viewer's tickets, on opening or after a ticket was sent. */
const fetchingTickets = contactSetup.createStateConfig({
  invoke: {
    src: "loadTickets",
    onDone: [
      { guard: { type: "loaded", params: answerOf }, target: "loaded", actions: { type: "keepTickets", params: answerOf } },
      { target: "unavailable", actions: { type: "keepTicketsError", params: answerOf } }
    ]
  }
})

/** /contactus: the ticket form, with a player context a viewer may attach, and the viewer's own tickets. */
export const contactMachine = contactSetup.createMachine({
  id: "contact",
  context: ({ input }) => {
    const attachment = playerContextFromQuery(input.search) ?? null
    return { values: valuesFor(attachment), fieldErrors: {}, attachment, alert: null, tickets: [], ticketsError: null, chatUrl: "" }
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
            ...form.editing<ContactEvent>()({ change: "contact.change", submit: "contact.submit" }).on,
            "attachment.remove": REMOVE_ATTACHMENT
          }
        },
        submitting: form.submission<ContactContext>()({
          src: "submitTicket",
          // `isValid` let us in here, so the ticket checks out
          input: ({ context }): NewTicket => {
            const checked = checkTicket(context.values, context.attachment)
            return checked.ok ? checked.ticket : { type: 5, subject: "", description: "" }
          },
          accepted: {
            target: "submitted",
            actions: ["clearForm", "forgetReportAddress", "reloadTickets", { type: "notify", params: fromAnswer(ticketSent) }]
          },
          failed: {
            target: "failed",
            actions: [
              { type: "keepFailure", params: answerOf },
              { type: "notify", params: fromAnswer(ticketNotSent) }
            ]
          }
        }),
        submitted: {
          on: { "contact.change": { target: "editing", actions: SET_FIELD }, "contact.submit": SUBMIT_AGAIN }
        },
        // what was typed stays, so sending again is one press away
        failed: {
          on: { "contact.change": { actions: SET_FIELD }, "contact.submit": SUBMIT_AGAIN, "attachment.remove": REMOVE_ATTACHMENT }
        }
      }
    },
    tickets: {
      initial: "loading",
      states: {
        loading: {
          ...fetchingTickets,
          tags: ["ticketsLoading"],
          on: { "tickets.reload": { target: "loading", reenter: true } }
        },
        loaded: {
          on: { "tickets.reload": { target: "refreshing" } }
        },
        // the list stays in view while a new ticket is fetched into it
        refreshing: {
          ...fetchingTickets,
          tags: ["ticketsRefreshing"],
          on: { "tickets.reload": { target: "refreshing", reenter: true } }
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
export const selectFailure = (snapshot: ContactSnapshot): string | null => snapshot.context.alert
export const selectChatUrl = (snapshot: ContactSnapshot): string => snapshot.context.chatUrl
export const selectTicketsStatus = (snapshot: ContactSnapshot): TicketsStatus =>
  snapshot.hasTag("ticketsLoading") ? "loading" : snapshot.matches({ tickets: "unavailable" }) ? "failed" : "loaded"
export const selectIsRefreshingTickets = (snapshot: ContactSnapshot): boolean => snapshot.hasTag("ticketsRefreshing")
export const selectTickets = (snapshot: ContactSnapshot): ReadonlyArray<OwnTicket> => snapshot.context.tickets
export const selectTicketsError = (snapshot: ContactSnapshot): string | null => snapshot.context.ticketsError
