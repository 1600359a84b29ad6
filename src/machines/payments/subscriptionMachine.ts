import { setup } from "xstate"

/** /subscription: the notice that the site is free, and reloading the streams. */
export const subscriptionMachine = setup({}).createMachine({ id: "subscription", initial: "idle", states: { idle: {} } })
