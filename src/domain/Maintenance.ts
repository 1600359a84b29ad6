import * as Schema from "effect/Schema"

/** Site-wide maintenance status (SPEC §3); when on, the app shows only this notice. */
export class MaintenanceStatus extends Schema.Class<MaintenanceStatus>("MaintenanceStatus")({
  maintenanceMode: Schema.Boolean,
  title: Schema.String,
  firstRowText: Schema.String,
  secondRowText: Schema.String
}) {}

/** Per-stream maintenance modal (SPEC §2; title spelled as specified, body in Norwegian). */
export const STREAM_MAINTENANCE_TITLE = "Steam under maintenance"
export const STREAM_MAINTENANCE_TEXT = "Denne strømmen er under vedlikehold. Kom tilbake senere eller prøv en annen strøm."
/** Its language (Norwegian Bokmål), for screen readers to read it as such. */
export const STREAM_MAINTENANCE_LANG = "nb"
export const PURCHASE_TITLE = "Purchase a subscription"
export const PURCHASE_BUTTON = "View Plans"
