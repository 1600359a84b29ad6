import { Link } from "react-router-dom"
import {
  type ForgotPasswordField,
  forgotPasswordMachine,
  RESET_REQUESTED_MESSAGE,
  selectFirstInvalidField,
  selectForgotPasswordAlert,
  selectForgotPasswordErrors,
  selectForgotPasswordValues,
  selectIsRequestingReset,
  selectIsResetRequested
} from "../../machines/account/forgotPasswordMachine.ts"
import { button } from "../shared/controls.css.ts"
import { EmailField, focusField } from "../shared/FormField.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AccountForm.css.ts"
import { AccountForm } from "./AccountForm.tsx"
import { ResultPanel } from "./ResultPanel.tsx"

const FIELD_IDS: Readonly<Record<ForgotPasswordField, string>> = { email: "forgot-email" }

/** /forgot-password: one email field; the answer never says whether the address has an account. */
export const ForgotPasswordView = () => {
  const request = usePageActor(forgotPasswordMachine)
  const { values, errors, alert, submitting, sent } = useSelectors(request, {
    values: selectForgotPasswordValues,
    errors: selectForgotPasswordErrors,
    alert: selectForgotPasswordAlert,
    submitting: selectIsRequestingReset,
    sent: selectIsResetRequested
  })
  const submit = () => {
    request.send({ type: "forgotPassword.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(request.getSnapshot()))
  }
  const backToLogin = (
    <Link className={button({ tone: "secondary", block: true })} to="/login">
      Back to sign in
    </Link>
  )

  if (sent) {
    return (
      <ResultPanel title="Check your email" tone="info" actions={backToLogin}>
        <p className={styles.message}>{RESET_REQUESTED_MESSAGE}</p>
        <p className={styles.message}>The link in the email works once and expires after an hour.</p>
      </ResultPanel>
    )
  }
  return (
    <>
      <h1 className={surfaces.pageTitle}>Forgot password</h1>
      <p className={surfaces.muted}>Enter the email address of your account and we will send you a link to choose a new password.</p>
      <AccountForm
        onSubmit={submit}
        submitting={submitting}
        submitLabel="Send reset link"
        submittingLabel="Sending…"
        alert={alert}
        signInPrompt="Remembered it?"
      >
        <EmailField
          id={FIELD_IDS.email}
          value={values.email}
          error={errors.email}
          readOnly={submitting}
          onChange={(value) => request.send({ type: "forgotPassword.change", field: "email", value })}
        />
      </AccountForm>
    </>
  )
}
