import { setup } from "xstate"

/** /contactus: the ticket form and the viewer's own tickets. */
export const contactMachine = setup({}).createMachine({ id: "contact", initial: "idle", states: { idle: {} } })
