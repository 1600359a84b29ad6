import { setup } from "xstate"

/** /invites: reward points, the invite link and the invitations it brought. */
export const invitesMachine = setup({}).createMachine({ id: "invites", initial: "idle", states: { idle: {} } })
