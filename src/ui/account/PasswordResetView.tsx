import { useActorRef, useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import { Link, useSearchParams } from "react-router-dom"
import type { ActorRefFrom } from "xstate"
import {
  type PasswordResetField,
  type passwordResetMachine,
  selectFirstInvalidField,
  selectIsResettingPassword,
  selectPasswordResetAlert,
  selectPasswordResetDetail,
  selectPasswordResetErrors,
  selectPasswordResetStep,
  selectPasswordResetValues,
  selectResetEmail
} from "../../machines/account/passwordResetMachine.ts"
import { button } from "../shared/controls.css.ts"
import { FormField, focusField, PasswordField } from "../shared/FormField.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as page from "../shell/PublicLayout.css.ts"
import * as styles from "./AccountForm.css.ts"
import { PendingPanel, ResultPanel, UnreachablePanel } from "./ResultPanel.tsx"

const FIELD_IDS: Readonly<Record<PasswordResetField, string>> = { password: "reset-password", confirmPassword: "reset-confirm" }

/** /password-reset-confirmation?token=…: the link from the reset email. */
export const PasswordResetView = () => {
  const token = useSearchParams()[0].get("token") ?? ""
  return <PasswordReset key={token} token={token} />
}

const PasswordReset = ({ token }: { readonly token: string }) => {
  const services = useServices()
  const reset = useActorRef(services.passwordReset, { ...services.actorOptions, input: { token } })
  const step = useSelector(reset, selectPasswordResetStep)
  const detail = useSelector(reset, selectPasswordResetDetail)
  switch (step) {
    case "checkingToken":
      return <PendingPanel title="Checking your reset link…" />
    case "complete":
      return (
        <ResultPanel
          title="Password has been updated"
          tone="success"
          actions={
            <Link className={button({ tone: "primary", block: true })} to="/login">
              Go to login page
            </Link>
          }
        >
          <p className={styles.message}>Sign in with your new password. Other devices have been signed out.</p>
        </ResultPanel>
      )
    case "unreachable":
      return (
        <UnreachablePanel
          detail={detail}
          onRetry={() => reset.send({ type: "passwordReset.retry" })}
          other={
            <Link className={button({ tone: "secondary", block: true })} to="/login">
              Go to login page
            </Link>
          }
        />
      )
    case "error":
      return (
        <ResultPanel
          title="Password not reset"
          tone="error"
          actions={
            <>
              <Link className={button({ tone: "primary", block: true })} to="/forgot-password">
                Request a new link
              </Link>
              <Link className={button({ tone: "secondary", block: true })} to="/login">
                Go to login page
              </Link>
            </>
          }
        >
          <p className={styles.message}>{detail}</p>
        </ResultPanel>
      )
    case "form":
      return <PasswordResetForm reset={reset} />
  }
}

const PasswordResetForm = ({ reset }: { readonly reset: ActorRefFrom<typeof passwordResetMachine> }) => {
  const email = useSelector(reset, selectResetEmail)
  const values = useSelector(reset, selectPasswordResetValues)
  const errors = useSelector(reset, selectPasswordResetErrors)
  const alert = useSelector(reset, selectPasswordResetAlert)
  const submitting = useSelector(reset, selectIsResettingPassword)
  const change = (field: PasswordResetField) => (value: string) => reset.send({ type: "passwordReset.change", field, value })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    reset.send({ type: "passwordReset.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(reset.getSnapshot()))
  }
  return (
    <>
      <h1 className={page.title}>Reset your password</h1>
      <p className={page.text}>Choose a new password for your account.</p>
      <form className={styles.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        {/* the password manager stores the new password under this account */}
        <FormField id="reset-email" label="Email" type="email" autoComplete="username" value={email} readOnly />
        <PasswordField
          id={FIELD_IDS.password}
          label="New password"
          autoComplete="new-password"
          value={values.password}
          error={errors.password}
          hint="At least 8 characters."
          readOnly={submitting}
          onChange={change("password")}
        />
        <PasswordField
          id={FIELD_IDS.confirmPassword}
          label="Confirm new password"
          autoComplete="new-password"
          value={values.confirmPassword}
          error={errors.confirmPassword}
          readOnly={submitting}
          onChange={change("confirmPassword")}
        />
        {alert === null ? null : (
          <p role="alert" className={styles.alert}>
            {alert}
          </p>
        )}
        <button type="submit" className={button({ tone: "primary", block: true })} aria-disabled={submitting || undefined}>
          {submitting ? "Updating…" : "Update password"}
        </button>
      </form>
    </>
  )
}
