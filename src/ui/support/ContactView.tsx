import { PageView } from "../shared/PageView.tsx"

/** /contactus (SPEC §2): the chat community and the ticket form. */
export const ContactView = () => <PageView title="Contact Us" lead="Questions or problems? Open a ticket and we will answer by email." />
