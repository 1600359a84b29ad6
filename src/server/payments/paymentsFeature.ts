import type { Command } from "../cli/command.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"

/** Payments and subscriptions: imported or added by the operator, listed to their payer. */
export function paymentsFeature(_deps: FeatureDeps): ServerFeature {
  return {}
}

export const paymentsCommands: ReadonlyArray<Command> = []
