import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const faq = style({ margin: 0, display: "flex", flexDirection: "column", gap: vars.space.md })

export const question = style({ margin: 0, fontWeight: 700, fontSize: vars.fontSize.large })
