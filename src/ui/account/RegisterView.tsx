import { Link, Navigate, useSearchParams } from "react-router-dom"
import type { ActorRefFrom } from "xstate"
import {
  type RegistrationField,
  registrationMachine,
  selectDerivedUsername,
  selectFirstInvalidField,
  selectIsRegistering,
  selectRegisteredEmail,
  selectRegistrationAlert,
  selectRegistrationErrors,
  selectRegistrationFailure,
  selectRegistrationStep,
  selectRegistrationValues
} from "../../machines/account/registrationMachine.ts"
import { button } from "../shared/controls.css.ts"
import { bindFields, EmailField, focusField } from "../shared/FormField.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AccountForm.css.ts"
import { AccountForm } from "./AccountForm.tsx"
import { NewPasswordFields } from "./NewPasswordFields.tsx"
import { PendingPanel, ResultPanel, UnreachablePanel } from "./ResultPanel.tsx"

const FIELD_IDS: Readonly<Record<RegistrationField, string>> = {
  email: "register-email",
  password: "register-password",
  confirmPassword: "register-confirm"
}

/** /register?invite=…: registration needs an invite code (SPEC §2); without one, the login page. */
export const RegisterView = () => {
  const invite = useSearchParams()[0].get("invite")?.trim() ?? ""
  return invite === "" ? <Navigate to="/login" replace /> : <Registration key={invite} invite={invite} />
}

const Registration = ({ invite }: { readonly invite: string }) => {
  const registration = usePageActor(registrationMachine, { input: { invite } })
  const { step, failure, registeredEmail } = useSelectors(registration, {
    step: selectRegistrationStep,
    failure: selectRegistrationFailure,
    registeredEmail: selectRegisteredEmail
  })

  switch (step) {
    case "checkingInvite":
      return <PendingPanel title="Checking your invite…" />
    case "complete":
      return (
        <ResultPanel title="Success! Account created" tone="success">
          <p className={styles.message}>
            We sent a confirmation email to <span className={styles.strong}>{registeredEmail}</span>.
          </p>
          <p className={styles.message}>Click the link in it to finish creating your account.</p>
        </ResultPanel>
      )
    case "error":
      // SPEC's button for a taken email; any other failure (a bad or spent invite) still needs a way on
      return (
        <ResultPanel
          title="Oops!"
          tone="error"
          actions={
            <Link className={button({ tone: "primary", block: true })} to="/login">
              {failure?.emailTaken === true ? "Go to login page" : "Sign in"}
            </Link>
          }
        >
          <p className={styles.message}>{failure?.detail}</p>
        </ResultPanel>
      )
    case "unreachable":
      return (
        <UnreachablePanel
          detail={failure?.detail ?? null}
          onRetry={() => registration.send({ type: "registration.retry" })}
          other={
            <Link className={button({ tone: "secondary", block: true })} to="/login">
              Sign in
            </Link>
          }
        />
      )
    case "form":
      return <RegistrationForm registration={registration} />
  }
}

const RegistrationForm = ({ registration }: { readonly registration: ActorRefFrom<typeof registrationMachine> }) => {
  const { values, errors, alert, submitting, username } = useSelectors(registration, {
    values: selectRegistrationValues,
    errors: selectRegistrationErrors,
    alert: selectRegistrationAlert,
    submitting: selectIsRegistering,
    username: selectDerivedUsername
  })
  const field = bindFields({
    ids: FIELD_IDS,
    values,
    errors,
    submitting,
    change: (name: RegistrationField, value) => registration.send({ type: "registration.change", field: name, value })
  })
  const submit = () => {
    registration.send({ type: "registration.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(registration.getSnapshot()))
  }
  return (
    <>
      <h1 className={surfaces.pageTitle}>Create your account</h1>
      <p className={surfaces.muted}>You have been invited. Choose the email address and password you will sign in with.</p>
      <AccountForm
        onSubmit={submit}
        submitting={submitting}
        submitLabel="Create account"
        submittingLabel="Creating account…"
        alert={alert}
        signInPrompt="Already have an account?"
      >
        <EmailField
          {...field("email")}
          hint={username === "" ? "Your username will be the part before the @." : `Your username will be ${username}.`}
        />
        <NewPasswordFields password={field("password")} confirm={field("confirmPassword")} wording="first" />
      </AccountForm>
    </>
  )
}
