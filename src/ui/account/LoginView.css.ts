import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const row = style({ display: "flex", justifyContent: "flex-end" })

export const link = style({ fontSize: vars.fontSize.small })

/** "Send the verification email again" and what came of it, under the refusal. */
export const resend = style({ display: "flex", flexDirection: "column" })

// the status line is always there, so screen readers announce what is put in it
export const resendStatus = style({
  margin: 0,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  selectors: { "&:not(:empty)": { marginTop: vars.space.sm } }
})

export const resendFailure = style({ margin: `${vars.space.sm} 0 0`, color: vars.color.danger, fontSize: vars.fontSize.small })
