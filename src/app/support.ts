import { fromCallback, fromPromise } from "xstate"
import { type BootSnapshot, selectSettings } from "../machines/shell/bootMachine.ts"
import { type ContactEvent, contactMachine } from "../machines/support/contactMachine.ts"
import { ticketDeskMachine } from "../machines/support/ticketDeskMachine.ts"
import { ticketStatusMachine } from "../machines/support/ticketStatusMachine.ts"
import type { FeatureWiring } from "./featureWiring.ts"
import { notifyVia } from "./notifyVia.ts"

/** The contact page and the staff desk: tickets through the API, the chat address from the boot's site settings, results as notifications. */
export const createSupport = ({ callApi, notifications, boot }: FeatureWiring) => ({
  ticketDesk: ticketDeskMachine.provide({
    actors: {
      loadTickets: fromPromise(({ signal }) => callApi("tickets", { signal })),
      ticketStatus: ticketStatusMachine.provide({
        actors: {
          updateTicket: fromPromise(({ input, signal }) => callApi("updateTicket", { body: input, signal })),
          sendReply: fromPromise(({ input, signal }) => callApi("replyToTicket", { body: input, signal }))
        },
        actions: { notify: notifyVia(notifications) }
      })
    }
  }),
  contact: contactMachine.provide({
    actors: {
      submitTicket: fromPromise(({ input, signal }) => callApi("createTicket", { body: input, signal })),
      loadTickets: fromPromise(({ signal }) => callApi("myTickets", { signal })),
      siteSettings: fromCallback<ContactEvent>(({ sendBack }) => {
        let chatUrl: string | undefined
        const tell = (snapshot: BootSnapshot) => {
          const next = selectSettings(snapshot).chatUrl
          if (next === chatUrl) return
          chatUrl = next
          sendBack({ type: "settings.changed", chatUrl: next })
        }
        tell(boot.getSnapshot())
        const subscription = boot.subscribe(tell)
        return () => subscription.unsubscribe()
      })
    },
    actions: {
      // the address bar only: the router keeps its entry (and the form its state) as they are
      forgetReportAddress: () => window.history.replaceState(window.history.state, "", "/contactus"),
      notify: notifyVia(notifications)
    }
  })
})
