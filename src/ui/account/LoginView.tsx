import { useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import { Link } from "react-router-dom"
import {
  type LoginField,
  selectEmail,
  selectFieldErrors,
  selectFirstInvalidField,
  selectIsSubmitting,
  selectLoginError,
  selectPassword
} from "../../machines/account/loginFormMachine.ts"
import { selectLoginForm } from "../../machines/shell/sessionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { FormField, focusField } from "../shared/FormField.tsx"
import { useSession } from "../shared/ServicesContext.tsx"
import * as page from "../shell/PublicLayout.css.ts"
import * as forms from "./AccountForm.css.ts"
import * as styles from "./LoginView.css.ts"

type LoginFormRef = NonNullable<ReturnType<typeof selectLoginForm>>

const FIELD_IDS: Readonly<Record<LoginField, string>> = { email: "login-email", password: "login-password" }

export const LoginView = () => {
  const form = useSelector(useSession(), selectLoginForm)
  // the form only exists without a session; with one the route redirects home
  return form === undefined ? null : <LoginForm form={form} />
}

const LoginForm = ({ form }: { readonly form: LoginFormRef }) => {
  const email = useSelector(form, selectEmail)
  const password = useSelector(form, selectPassword)
  const fieldErrors = useSelector(form, selectFieldErrors)
  const error = useSelector(form, selectLoginError)
  const submitting = useSelector(form, selectIsSubmitting)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    form.send({ type: "login.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(form.getSnapshot()))
  }
  return (
    <>
      <h1 className={page.title}>Sign in</h1>
      <form className={forms.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <FormField
          id={FIELD_IDS.email}
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          error={fieldErrors.email}
          readOnly={submitting}
          onChange={(value) => form.send({ type: "login.change", field: "email", value })}
        />
        <FormField
          id={FIELD_IDS.password}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={fieldErrors.password}
          readOnly={submitting}
          onChange={(value) => form.send({ type: "login.change", field: "password", value })}
        />
        <div className={styles.row}>
          <Link className={styles.link} to="/forgot-password">
            Forgot password?
          </Link>
        </div>
        {error === null ? null : (
          <p role="alert" className={forms.alert}>
            {error}
          </p>
        )}
        <button type="submit" className={button({ tone: "primary", block: true })} aria-disabled={submitting || undefined}>
          Sign in
        </button>
      </form>
    </>
  )
}
