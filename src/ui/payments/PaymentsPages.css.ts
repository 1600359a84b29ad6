import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const text = style({ margin: 0 })

export const emptyTitle = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700 })

export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm })

export const statusValue = style({ margin: 0, fontSize: vars.fontSize.title, fontWeight: 700, lineHeight: 1.25 })

export const failure = style({ margin: 0, color: vars.color.danger })
