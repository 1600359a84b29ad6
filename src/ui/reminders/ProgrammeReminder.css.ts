import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const small = style({ minHeight: "32px", padding: `0 ${vars.space.md}` })

export const set = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: vars.space.sm })

export const status = style({ margin: 0, color: vars.color.success, fontSize: vars.fontSize.small, fontWeight: 600 })
