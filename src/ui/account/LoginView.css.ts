import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const form = style({ display: "flex", flexDirection: "column", gap: vars.space.lg })

/** The server's reason for refusing the sign-in, in red (SPEC §2). */
export const error = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  color: vars.color.danger,
  background: vars.color.dangerSurface,
  borderRadius: vars.radius.md,
  fontWeight: 600
})

export const row = style({ display: "flex", justifyContent: "flex-end" })

export const link = style({ fontSize: vars.fontSize.small })
