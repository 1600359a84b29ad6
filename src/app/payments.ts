import { fromPromise } from "xstate"
import { subscriptionMachine } from "../machines/payments/subscriptionMachine.ts"
import { transactionsMachine } from "../machines/payments/transactionsMachine.ts"
import type { FeatureWiring } from "./featureWiring.ts"

/** The payments pages' machines, wired to their calls: the viewer's payments, their subscription, and the streams to reload. */
export const createPayments = ({ callApi }: FeatureWiring) => ({
  transactions: transactionsMachine.provide({
    actors: {
      loadTransactions: fromPromise(({ signal }) => callApi("payments", { signal }))
    }
  }),
  subscription: subscriptionMachine.provide({
    actors: {
      loadSubscription: fromPromise(({ signal }) => callApi("activeSubscription", { signal })),
      reloadStreams: fromPromise(({ signal }) => callApi("streams", { signal }))
    }
  })
})
