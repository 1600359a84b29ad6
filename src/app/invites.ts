import type { FeatureWiring } from "./featureWiring.ts"
import { invitesMachine } from "../machines/invites/invitesMachine.ts"

/** The invites page's machine, wired to its adapters. */
export const createInvites = (_deps: FeatureWiring) => ({
  invites: invitesMachine
})
