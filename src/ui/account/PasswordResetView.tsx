import { useSelector } from "@xstate/react"
import { Link, useSearchParams } from "react-router-dom"
import type { ActorRefFrom } from "xstate"
import {
  type PasswordResetField,
  passwordResetMachine,
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
import { bindFields, EmailField, focusField } from "../shared/FormField.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AccountForm.css.ts"
import { AccountForm } from "./AccountForm.tsx"
import { NewPasswordFields } from "./NewPasswordFields.tsx"
import { PendingPanel, ResultPanel, UnreachablePanel } from "./ResultPanel.tsx"

const FIELD_IDS: Readonly<Record<PasswordResetField, string>> = { password: "reset-password", confirmPassword: "reset-confirm" }

/** /password-reset-confirmation?token=…: the link from the reset email. */
export const PasswordResetView = () => {
  const token = useSearchParams()[0].get("token") ?? ""
  return <PasswordReset key={token} token={token} />
}

const PasswordReset = ({ token }: { readonly token: string }) => {
  const reset = usePageActor(passwordResetMachine, { input: { token } })
  const step = useSelector(reset, selectPasswordResetStep)
  const detail = useSelector(reset, selectPasswordResetDetail)
  const toLogin = (tone: "primary" | "secondary") => (
    <Link className={button({ tone, block: true })} to="/login">
      Go to login page
    </Link>
  )
  switch (step) {
    case "checkingToken":
      return <PendingPanel title="Checking your reset link…" />
    case "complete":
      return (
        <ResultPanel title="Password has been updated" tone="success" actions={toLogin("primary")}>
          <p className={styles.message}>Sign in with your new password. Other devices have been signed out.</p>
        </ResultPanel>
      )
    case "unreachable":
      return <UnreachablePanel detail={detail} onRetry={() => reset.send({ type: "passwordReset.retry" })} other={toLogin("secondary")} />
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
              {toLogin("secondary")}
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
  const { email, values, errors, alert, submitting } = useSelectors(reset, {
    email: selectResetEmail,
    values: selectPasswordResetValues,
    errors: selectPasswordResetErrors,
    alert: selectPasswordResetAlert,
    submitting: selectIsResettingPassword
  })
  const field = bindFields({
    ids: FIELD_IDS,
    values,
    errors,
    submitting,
    change: (name: PasswordResetField, value) => reset.send({ type: "passwordReset.change", field: name, value })
  })
  const submit = () => {
    reset.send({ type: "passwordReset.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(reset.getSnapshot()))
  }
  return (
    <>
      <h1 className={surfaces.pageTitle}>Reset your password</h1>
      <p className={surfaces.muted}>Choose a new password for your account.</p>
      <AccountForm onSubmit={submit} submitting={submitting} submitLabel="Update password" submittingLabel="Updating…" alert={alert}>
        {/* the password manager stores the new password under this account */}
        <EmailField id="reset-email" autoComplete="username" value={email} readOnly />
        <NewPasswordFields password={field("password")} confirm={field("confirmPassword")} wording="new" />
      </AccountForm>
    </>
  )
}
