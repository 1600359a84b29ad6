import { style } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { media, vars } from "./theme.css.ts"

/** Buttons and button-looking links share one recipe. */
export const button = recipe({
  base: {
    display: "inline-flex",
    alignItems: "center",
    justifyContent: "center",
    gap: vars.space.sm,
    minHeight: "40px",
    padding: `0 ${vars.space.lg}`,
    borderRadius: vars.radius.md,
    border: "1px solid transparent",
    fontWeight: 600,
    textDecoration: "none",
    whiteSpace: "nowrap",
    cursor: "pointer",
    transition: "background-color 120ms ease, border-color 120ms ease",
    selectors: {
      "&:disabled, &[aria-disabled='true']": { opacity: 0.6, cursor: "not-allowed" }
    }
  },
  variants: {
    tone: {
      primary: {
        background: vars.color.accent,
        color: vars.color.onAccent,
        // a lighter fill would drop white text below AA contrast, so hover shows a ring instead
        selectors: { "&:hover:not(:disabled):not([aria-disabled='true'])": { boxShadow: `0 0 0 3px ${vars.color.accentRing}` } }
      },
      secondary: {
        background: vars.color.surfaceRaised,
        borderColor: vars.color.border,
        color: vars.color.text,
        selectors: { "&:hover:not(:disabled):not([aria-disabled='true'])": { background: vars.color.surfaceHover } }
      },
      ghost: {
        background: "transparent",
        color: vars.color.text,
        selectors: { "&:hover:not(:disabled):not([aria-disabled='true'])": { background: vars.color.surfaceHover } }
      }
    },
    block: { true: { width: "100%" } }
  },
  defaultVariants: { tone: "secondary" }
})

export const field = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

/** Fields and buttons side by side, their bottoms aligned; one under another on a phone. */
export const controlRow = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.lg,
  "@media": { [media.belowSmall]: { flexDirection: "column", alignItems: "stretch", gap: vars.space.md } }
})

/** A form's button at its end; across the form on a phone, where it is easier to reach. */
export const submitRow = style({
  display: "flex",
  justifyContent: "flex-end",
  "@media": { [media.belowSmall]: { flexDirection: "column" } }
})

/** The field of a control row that takes the room the others leave: a search. */
export const growingField = style([
  field,
  { flex: "1 1 320px", maxWidth: "520px", "@media": { [media.belowSmall]: { flex: "none", maxWidth: "none" } } }
])

export const fieldLabel = style({ fontSize: vars.fontSize.small, fontWeight: 600, color: vars.color.textMuted })

export const textInput = style({
  width: "100%",
  minHeight: "42px",
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  selectors: {
    "&:focus": { borderColor: vars.color.accent, outline: "none", boxShadow: `0 0 0 3px ${vars.color.accentRing}` },
    "&[aria-invalid='true']": { borderColor: vars.color.danger }
  }
})

export const fieldError = style({ color: vars.color.danger, fontSize: vars.fontSize.small, margin: 0 })

export const textArea = style({ minHeight: "120px", resize: "vertical" })

export const fieldHint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** Shown, selectable and read out, but visibly not something to type into. */
export const readOnlyInput = style({
  background: vars.color.surfaceRaised,
  color: vars.color.textMuted,
  cursor: "default",
  selectors: { "&:focus": { boxShadow: "none", borderColor: vars.color.border } }
})

export const visuallyHidden = style({
  position: "absolute",
  width: "1px",
  height: "1px",
  padding: 0,
  margin: "-1px",
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0
})
