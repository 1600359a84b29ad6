import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const row = style({ display: "flex", justifyContent: "flex-end" })

export const link = style({ fontSize: vars.fontSize.small })
