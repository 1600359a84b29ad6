import type { Command } from "../cli/command.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { paymentAdd, paymentImport } from "./paymentCommands.ts"
import { paymentHandlers } from "./paymentHandlers.ts"

/** Payments and subscriptions: imported or added by the operator, listed to their payer. */
export function paymentsFeature({ db, now }: FeatureDeps): ServerFeature {
  return { handlers: paymentHandlers(db, now) }
}

export const paymentsCommands: ReadonlyArray<Command> = [paymentImport, paymentAdd]
