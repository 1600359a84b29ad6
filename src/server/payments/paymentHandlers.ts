import type { Kysely } from "kysely"
import type { paymentsContract } from "../../domain/contract/payments.ts"
import { activeRun } from "../../domain/Payment.ts"
import { SubscriptionResult } from "../../domain/ResultCode.ts"
import { DEFAULT_SERVER_SETTINGS, parseDiscountRates } from "../../domain/SiteSettings.ts"
import { MONTHLY_PLAN_ID } from "../../domain/Subscription.ts"
import type { Tables } from "../db/schema.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { listPayments, paidPeriods } from "./paymentsRepo.ts"

export type PaymentHandlers = HandlersOf<typeof paymentsContract>

const DEFAULT_DISCOUNT_RATES = parseDiscountRates(DEFAULT_SERVER_SETTINGS.discountRates) ?? []

export function paymentHandlers(db: Kysely<Tables>, now: () => number): PaymentHandlers {
  return {
    async payments({ session }) {
      const rows = await listPayments(db, session.userId)
      return {
        success: true,
        // numbered within the account, 1 for its first payment: the table ids are global and would
        // show a viewer gaps (1, 3) where other accounts paid, telling how many payments others make
        data: rows.map((row, newestFirst) => ({
          id: rows.length - newestFirst,
          paypal_transaction_id: row.paypal_transaction_id,
          created_at: row.created_at,
          price: row.price,
          currency: row.currency
        }))
      }
    },

    async activeSubscription({ session }) {
      const run = activeRun(await paidPeriods(db, session.userId), now())
      return run === undefined
        ? { resultCode: SubscriptionResult.SUBSCRIPTION_DOES_NOT_EXIST, data: null }
        : { resultCode: SubscriptionResult.SUCCESS, data: { planId: MONTHLY_PLAN_ID, startedAt: run.start, expiresAt: run.end } }
    },

    async subscriptionPlans() {
      const settings = await siteSettings.inEffect(db)
      return {
        resultCode: SubscriptionResult.SUCCESS,
        subscriptionPrice: settings.subscriptionPrice,
        // the setting is checked when set; a hand-edited one that no longer reads falls back
        discountRates: parseDiscountRates(settings.discountRates) ?? DEFAULT_DISCOUNT_RATES
      }
    }
  }
}
