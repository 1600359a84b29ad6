import * as Schema from "effect/Schema"
import { ActiveSubscription, SubscriptionPlans } from "../Subscription.ts"
import { Transaction } from "../Transaction.ts"
import { dataResponse, endpoint } from "./endpoint.ts"

export const PaymentsResponse = dataResponse(Schema.Array(Transaction))

/** The viewer's payments and the subscription they buy. */
export const paymentsContract = {
  payments: endpoint({
    method: "GET",
    path: "/api/payments",
    response: PaymentsResponse,
    access: "user",
    summary: "The user's transactions"
  }),
  activeSubscription: endpoint({
    method: "GET",
    path: "/api/subscriptions/useractivesubscription",
    response: ActiveSubscription,
    access: "user",
    summary: "The user's active subscription"
  }),
  subscriptionPlans: endpoint({
    method: "GET",
    path: "/api/subscriptions/subscription-price-and-discount-rates",
    response: SubscriptionPlans,
    access: "user",
    summary: "Subscription price and discount rates"
  })
} as const
