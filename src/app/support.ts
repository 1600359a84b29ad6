import type { FeatureWiring } from "./featureWiring.ts"
import { contactMachine } from "../machines/support/contactMachine.ts"

/** The contact page's machine, wired to its adapters. */
export const createSupport = (_deps: FeatureWiring) => ({
  contact: contactMachine
})
