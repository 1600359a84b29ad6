import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const catchUp = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

export const title = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, fontWeight: 600 })

export const list = style({ display: "flex", flexDirection: "column", gap: vars.space.xs, margin: 0, padding: 0, listStyle: "none" })

export const link = style({ fontSize: vars.fontSize.small, overflowWrap: "anywhere", fontVariantNumeric: "tabular-nums" })
