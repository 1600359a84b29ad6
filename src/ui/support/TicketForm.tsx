import type { FormEvent } from "react"
import type { ActorRefFrom } from "xstate"
import { TICKET_DESCRIPTION_MAX_LENGTH, TICKET_SUBJECT_MAX_LENGTH } from "../../domain/Ticket.ts"
import {
  type contactMachine,
  selectAttachment,
  selectFailure,
  selectFieldErrors,
  selectFirstInvalidField,
  selectFormStatus,
  selectValues
} from "../../machines/support/contactMachine.ts"
import type { ContactField } from "../../machines/support/ticketForm.ts"
import { button, submitRow } from "../shared/controls.css.ts"
import { FormField, focusField } from "../shared/FormField.tsx"
import { Panel } from "../shared/Panel.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { AttachedPanel } from "./AttachedPanel.tsx"
import { CategoryField } from "./CategoryField.tsx"
import * as styles from "./ContactView.css.ts"

type ContactActor = ActorRefFrom<typeof contactMachine>

const FIELD_IDS: Readonly<Record<ContactField, string>> = {
  category: "ticket-category",
  subject: "ticket-subject",
  description: "ticket-description"
}

/** The ticket form: category, subject, description, and the player details a viewer brought along. */
export const TicketForm = ({ contact }: { readonly contact: ContactActor }) => {
  const { values, errors, status, failure, attachment } = useSelectors(contact, {
    values: selectValues,
    errors: selectFieldErrors,
    status: selectFormStatus,
    failure: selectFailure,
    attachment: selectAttachment
  })
  const submitting = status === "submitting"
  const change = (field: ContactField) => (value: string) => contact.send({ type: "contact.change", field, value })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    contact.send({ type: "contact.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(contact.getSnapshot()))
  }
  const removeAttachment = () => {
    contact.send({ type: "attachment.remove" })
    focusField(FIELD_IDS, "category")
  }
  return (
    <Panel title="Open a ticket" intro="Tell us what went wrong or what you need. We answer every ticket by email." spacing="roomy">
      <form className={styles.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        {attachment === null ? null : <AttachedPanel context={attachment} onRemove={removeAttachment} />}
        <CategoryField id={FIELD_IDS.category} value={values.category} error={errors.category} onChange={change("category")} />
        <FormField
          id={FIELD_IDS.subject}
          name="subject"
          label="Subject"
          value={values.subject}
          error={errors.subject}
          maxLength={TICKET_SUBJECT_MAX_LENGTH}
          readOnly={submitting}
          onChange={change("subject")}
        />
        <FormField
          id={FIELD_IDS.description}
          name="description"
          label="Description"
          type="multiline"
          value={values.description}
          error={errors.description}
          hint="At least 6 characters. What happened, and what did you expect?"
          maxLength={TICKET_DESCRIPTION_MAX_LENGTH}
          readOnly={submitting}
          onChange={change("description")}
        />
        {status === "failed" && failure !== null ? (
          <p className={styles.note.failed}>Your ticket was not sent. {failure} What you typed is still here.</p>
        ) : null}
        {status === "submitted" ? (
          <p className={styles.note.submitted}>Thank you. Your ticket was sent and is listed below; we will answer by email.</p>
        ) : null}
        <div className={submitRow}>
          <button type="submit" className={button({ tone: "primary" })} aria-disabled={submitting || undefined}>
            {submitting ? "Sending…" : "Send ticket"}
          </button>
        </div>
      </form>
    </Panel>
  )
}
