import type { FeatureWiring } from "./featureWiring.ts"
import { subscriptionMachine } from "../machines/payments/subscriptionMachine.ts"
import { transactionsMachine } from "../machines/payments/transactionsMachine.ts"

/** The payments pages' machines, wired to their adapters. */
export const createPayments = (_deps: FeatureWiring) => ({
  transactions: transactionsMachine,
  subscription: subscriptionMachine
})
