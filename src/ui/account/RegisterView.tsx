import { useActorRef, useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import { Link, Navigate, useSearchParams } from "react-router-dom"
import type { ActorRefFrom } from "xstate"
import {
  type RegistrationField,
  type registrationMachine,
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
import { FormField, focusField, PasswordField } from "../shared/FormField.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as page from "../shell/PublicLayout.css.ts"
import * as styles from "./AccountForm.css.ts"
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
  const services = useServices()
  const registration = useActorRef(services.registration, { ...services.actorOptions, input: { invite } })
  const step = useSelector(registration, selectRegistrationStep)
  const failure = useSelector(registration, selectRegistrationFailure)
  const registeredEmail = useSelector(registration, selectRegisteredEmail)

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
  const values = useSelector(registration, selectRegistrationValues)
  const errors = useSelector(registration, selectRegistrationErrors)
  const alert = useSelector(registration, selectRegistrationAlert)
  const submitting = useSelector(registration, selectIsRegistering)
  const username = useSelector(registration, selectDerivedUsername)
  const change = (field: RegistrationField) => (value: string) => registration.send({ type: "registration.change", field, value })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    registration.send({ type: "registration.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(registration.getSnapshot()))
  }
  return (
    <>
      <h1 className={page.title}>Create your account</h1>
      <p className={page.text}>You have been invited. Choose the email address and password you will sign in with.</p>
      <form className={styles.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <FormField
          id={FIELD_IDS.email}
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          hint={username === "" ? "Your username will be the part before the @." : `Your username will be ${username}.`}
          readOnly={submitting}
          onChange={change("email")}
        />
        <PasswordField
          id={FIELD_IDS.password}
          label="Password"
          autoComplete="new-password"
          value={values.password}
          error={errors.password}
          hint="At least 8 characters."
          readOnly={submitting}
          onChange={change("password")}
        />
        <PasswordField
          id={FIELD_IDS.confirmPassword}
          label="Confirm password"
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
          {submitting ? "Creating account…" : "Create account"}
        </button>
        <p className={styles.footer}>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </>
  )
}
