import { useSelector } from "@xstate/react"
import { useLocation } from "react-router-dom"
import { contactMachine, selectChatUrl } from "../../machines/support/contactMachine.ts"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { PageView } from "../shared/PageView.tsx"
import { Panel } from "../shared/Panel.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { OwnTickets } from "./OwnTickets.tsx"
import { TicketForm } from "./TicketForm.tsx"

/** /contactus (SPEC §2): the chat community, the ticket form and the viewer's own tickets. */
export const ContactView = () => {
  const { search } = useLocation()
  // a 'Report a problem' link opened while on this page brings a new context: a fresh form for it
  return <Contact key={search} search={search} />
}

const Contact = ({ search }: { readonly search: string }) => {
  const contact = usePageActor(contactMachine, { input: { search } })
  const chatUrl = useSelector(contact, selectChatUrl)
  return (
    <PageView title="Contact Us" lead="Ask the community in our chat, or open a ticket and we will answer you by email.">
      {chatUrl === "" ? null : (
        <Panel
          title="Chat community"
          intro="Quick questions, stream tips and news from other viewers and our team."
          spacing="roomy"
          layout="split"
        >
          <a className={button({ tone: "secondary" })} href={chatUrl} target="_blank" rel="noopener noreferrer">
            Join the chat<span className={visuallyHidden}> (opens in a new tab)</span>
          </a>
        </Panel>
      )}
      <TicketForm contact={contact} />
      <OwnTickets contact={contact} />
    </PageView>
  )
}
