import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { reportHandlers } from "./reportHandlers.ts"

/** The staff reports: subscribers, members, orders and revenue, from the payments and accounts stored. */
export function reportsFeature({ db, now }: FeatureDeps): ServerFeature {
  return { handlers: reportHandlers(db, now) }
}
