import { style } from "@vanilla-extract/css"
import { media } from "./theme.css.ts"

/** Each side of an email's @ keeps to a line on a wide screen, so a table never breaks one mid-word; a phone's card may. */
export const emailPart = style({ whiteSpace: "nowrap", "@media": { [media.belowSmall]: { whiteSpace: "normal" } } })
