import * as Schema from "effect/Schema"

/** Site-wide maintenance status (SPEC §3); when on, the app shows only this notice. */
export class MaintenanceStatus extends Schema.Class<MaintenanceStatus>("MaintenanceStatus")({
  maintenanceMode: Schema.Boolean,
  title: Schema.String,
  firstRowText: Schema.String,
  secondRowText: Schema.String
}) {}

/**
 * The notice for a stream under maintenance (SPEC §2): its title as spelled there, its text in
 * Norwegian, and that language (Bokmål), for screen readers to read it as such.
 */
export const STREAM_MAINTENANCE = {
  title: "Steam under maintenance",
  text: "Denne strømmen er under vedlikehold. Kom tilbake senere eller prøv en annen strøm.",
  lang: "nb"
} as const

/** The notice for a stream only subscribers may watch (SPEC §2), and its button to /subscription. */
export const PURCHASE = { title: "Purchase a subscription", button: "View Plans" } as const
