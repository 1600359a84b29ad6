import * as Schema from "effect/Schema"
import { formatDate } from "./Dates.ts"
import { ResultCodeSchema } from "./ResultCode.ts"

/** What the site may charge a month in future, as the subscription page says (SPEC §1, §9). */
export const PRICE_NOTE_PER_MONTH = 5

/** The one plan there is: a month at a time. */
export const MONTHLY_PLAN_ID = 1

export const ActiveSubscription = Schema.Struct({
  resultCode: ResultCodeSchema,
  data: Schema.NullOr(Schema.Struct({ planId: Schema.Number, startedAt: Schema.String, expiresAt: Schema.NullOr(Schema.String) }))
})
export type ActiveSubscription = typeof ActiveSubscription.Type

export const SubscriptionPlans = Schema.Struct({
  resultCode: ResultCodeSchema,
  discountRates: Schema.Array(Schema.Number),
  subscriptionPrice: Schema.Number
})
export type SubscriptionPlans = typeof SubscriptionPlans.Type

export const NO_ACTIVE_SUBSCRIPTION = "No active subscription"

/** "Paid until 23/12/2026", the day in en-GB (SPEC §9). */
export const paidUntilText = (expiresAt: string): string => `Paid until ${formatDate(expiresAt)}`
