import { setup } from "xstate"

/** /transactions: the viewer's payments. */
export const transactionsMachine = setup({}).createMachine({ id: "transactions", initial: "idle", states: { idle: {} } })
