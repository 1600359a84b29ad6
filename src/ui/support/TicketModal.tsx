import type { ActorRefFrom } from "xstate"
import { ticketCategoryName } from "../../domain/Ticket.ts"
import { REPLY_MAX_LENGTH, STATUS_CHOICES } from "../../domain/TicketDesk.ts"
import {
  selectIsBusy,
  selectReply,
  selectRequested,
  selectStatus,
  selectTicket,
  type ticketStatusMachine
} from "../../machines/support/ticketStatusMachine.ts"
import { button } from "../shared/controls.css.ts"
import { DetailList } from "../shared/DetailList.tsx"
import { FormField } from "../shared/FormField.tsx"
import { Modal } from "../shared/Modal.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { playerContextDetails } from "./AttachedPanel.tsx"
import * as styles from "./TicketDesk.css.ts"

interface TicketModalProps {
  readonly actor: ActorRefFrom<typeof ticketStatusMachine>
  readonly onClose: () => void
}

/** The desk's ticket (SPEC §2): what was asked, its status selector and an email answer to its author. */
export const TicketModal = ({ actor, onClose }: TicketModalProps) => {
  const { ticket, status, requested, reply, busy } = useSelectors(actor, {
    ticket: selectTicket,
    status: selectStatus,
    requested: selectRequested,
    reply: selectReply,
    busy: selectIsBusy
  })
  const context = ticket.player_context
  return (
    <Modal
      open
      title={ticket.subject}
      onClose={onClose}
      actions={
        <>
          <button type="button" className={button({ tone: "secondary" })} onClick={onClose}>
            Close
          </button>
          <button type="button" className={button({ tone: "primary" })} disabled={busy} onClick={() => actor.send({ type: "reply.send" })}>
            Send Email
          </button>
        </>
      }
    >
      <DetailList
        details={[
          { term: "Type", definition: ticketCategoryName(ticket.type) },
          { term: "Email", definition: ticket.user__email },
          { term: "Subject", definition: ticket.subject },
          { term: "Description", definition: ticket.description },
          ...(context === null ? [] : playerContextDetails(context))
        ]}
      />
      <fieldset className={styles.statusGroup}>
        <legend className={styles.statusLegend}>Status</legend>
        {STATUS_CHOICES.map((choice) => {
          const current = (requested ?? status) === choice.status
          return (
            <button
              key={choice.status}
              type="button"
              className={button({ tone: current ? "primary" : "secondary" })}
              aria-pressed={current}
              disabled={busy && !current}
              onClick={() => actor.send({ type: "status.choose", status: choice.status })}
            >
              {choice.label}
            </button>
          )
        })}
      </fieldset>
      <FormField
        id="ticket-reply"
        label="Email Response"
        type="multiline"
        value={reply.text}
        error={reply.error ?? undefined}
        maxLength={REPLY_MAX_LENGTH}
        onChange={(text) => actor.send({ type: "reply.change", text })}
      />
    </Modal>
  )
}
