import type { FormEvent, ReactNode } from "react"
import { Link } from "react-router-dom"
import { button, submitRow } from "../shared/controls.css.ts"
import * as styles from "./AccountForm.css.ts"

interface AccountFormProps {
  /** Sends the form to its machine; the browser's own submit is kept from reloading the page. */
  readonly onSubmit: () => void
  readonly submitting: boolean
  readonly submitLabel: string
  /** The button's words while the form is being sent. */
  readonly submittingLabel?: string
  /** What the server refused, in red above the button (SPEC §2); the form keeps what was typed. */
  readonly alert?: string | null
  /** `page`: a public page's form, its button across the card; `panel`: a settings panel's, its button at the end. */
  readonly placement?: "page" | "panel"
  /** What the page offers about the refusal, right under it (sending a verification email again). */
  readonly belowAlert?: ReactNode
  /** Links after the button, so the keyboard reaches the button first. */
  readonly after?: ReactNode
  /** Words under the button before a link to sign in, for whoever needs the other form. */
  readonly signInPrompt?: string
  readonly children: ReactNode
}

/** The frame of every account form: its fields, the server's refusal, the submit button and a way elsewhere. */
export const AccountForm = ({
  onSubmit,
  submitting,
  submitLabel,
  submittingLabel = submitLabel,
  alert = null,
  placement = "page",
  belowAlert = null,
  after = null,
  signInPrompt,
  children
}: AccountFormProps) => {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  // aria-disabled, not disabled: the button keeps the focus while the form is sent
  const submitButton = (
    <button type="submit" className={button({ tone: "primary", block: placement === "page" })} aria-disabled={submitting || undefined}>
      {submitting ? submittingLabel : submitLabel}
    </button>
  )
  return (
    // sent by the app; a prerendered form the browser sent itself, before the app had loaded, posts
    // to the page, which keeps the password out of the address bar and sends the page again
    <form className={styles.form} method="post" onSubmit={submit} noValidate aria-busy={submitting || undefined}>
      {children}
      {alert === null ? null : (
        <p role="alert" className={styles.alert}>
          {alert}
        </p>
      )}
      {belowAlert}
      {placement === "page" ? submitButton : <div className={submitRow}>{submitButton}</div>}
      {after}
      {signInPrompt === undefined ? null : (
        <p className={styles.footer}>
          {signInPrompt} <Link to="/login">Sign in</Link>
        </p>
      )}
    </form>
  )
}
