import { style } from "@vanilla-extract/css"
import { vars } from "./theme.css.ts"

export const placeholders = style({ display: "flex", flexDirection: "column", gap: vars.space.md })
