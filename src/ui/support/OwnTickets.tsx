import type { ActorRefFrom } from "xstate"
import { formatDate } from "../../domain/Dates.ts"
import { type OwnTicket, playerLabel, ticketCategoryLabel, ticketStatusLabel } from "../../domain/Ticket.ts"
import {
  type contactMachine,
  selectIsRefreshingTickets,
  selectTickets,
  selectTicketsError,
  selectTicketsStatus
} from "../../machines/support/contactMachine.ts"
import { visuallyHidden } from "../shared/controls.css.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { Panel } from "../shared/Panel.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { errorText } from "./AttachedPanel.tsx"
import * as styles from "./ContactView.css.ts"

type ContactActor = ActorRefFrom<typeof contactMachine>

const TicketItem = ({ ticket }: { readonly ticket: OwnTicket }) => {
  const titleId = `ticket-${ticket.id}-subject`
  const context = ticket.player_context
  return (
    <li className={styles.tile({ tone: "plain" })}>
      <div className={styles.ticketHeader}>
        <h3 id={titleId} className={styles.ticketSubject}>
          {ticket.subject}
        </h3>
        <span className={styles.badge[ticket.status]}>
          <span className={visuallyHidden}>Status: </span>
          {ticketStatusLabel(ticket.status)}
        </span>
      </div>
      <p className={styles.meta}>
        {ticketCategoryLabel(ticket.type)} · Opened <time dateTime={ticket.created_at}>{formatDate(ticket.created_at)}</time>
        {ticket.resolved_at === null ? null : (
          <>
            {" "}
            · Resolved <time dateTime={ticket.resolved_at}>{formatDate(ticket.resolved_at)}</time>
          </>
        )}
      </p>
      {context === null ? null : (
        <p className={styles.meta}>
          Attached: {context.stream}, {playerLabel(context.player)}, {errorText(context.errorCode)}
        </p>
      )}
      <details className={styles.message}>
        <summary className={styles.summary}>Your message</summary>
        <p className={styles.description}>{ticket.description}</p>
      </details>
    </li>
  )
}

/** The viewer's own tickets, newest first, with where each stands. */
export const OwnTickets = ({ contact }: { readonly contact: ContactActor }) => {
  const { status, tickets, error, refreshing } = useSelectors(contact, {
    status: selectTicketsStatus,
    tickets: selectTickets,
    error: selectTicketsError,
    refreshing: selectIsRefreshingTickets
  })
  return (
    <Panel title="Your tickets" spacing="roomy" busy={refreshing}>
      {status === "loading" ? (
        <LoadingPlaceholder label="Loading your tickets…" count={2} height="72px" />
      ) : status === "failed" ? (
        <RetryNotice message={error} onRetry={() => contact.send({ type: "tickets.retry" })} look="alert" partial />
      ) : tickets.length === 0 ? (
        <p className={surfaces.empty({ inset: true })}>
          You have not opened any tickets yet. The tickets you open appear here, with where they stand.
        </p>
      ) : (
        <ul className={styles.ticketList}>
          {tickets.map((ticket) => (
            <TicketItem key={ticket.id} ticket={ticket} />
          ))}
        </ul>
      )}
    </Panel>
  )
}
