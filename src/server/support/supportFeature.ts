import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { ticketHandlers } from "./ticketHandlers.ts"

/** Support tickets: customers open them, staff work them on the desk. */
export function supportFeature({ db, now }: FeatureDeps): ServerFeature {
  return { handlers: ticketHandlers(db, now) }
}
