import { useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import { Link } from "react-router-dom"
import {
  selectEmail,
  selectFieldErrors,
  selectIsSubmitting,
  selectLoginError,
  selectPassword
} from "../../machines/account/loginFormMachine.ts"
import { selectLoginForm } from "../../machines/shell/sessionMachine.ts"
import { button, field, fieldError, fieldLabel, textInput } from "../shared/controls.css.ts"
import { useSession } from "../shared/ServicesContext.tsx"
import * as page from "../shell/PublicLayout.css.ts"
import * as styles from "./LoginView.css.ts"

type LoginFormRef = NonNullable<ReturnType<typeof selectLoginForm>>

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
  }
  return (
    <>
      <h1 className={page.title}>Sign in</h1>
      <form className={styles.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <div className={field}>
          <label className={fieldLabel} htmlFor="login-email">Email</label>
          <input
            id="login-email"
            className={textInput}
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            aria-invalid={fieldErrors.email === undefined ? undefined : true}
            aria-describedby={fieldErrors.email === undefined ? undefined : "login-email-error"}
            onChange={(event) => form.send({ type: "login.change", field: "email", value: event.target.value })}
          />
          {fieldErrors.email === undefined ? null : <p id="login-email-error" className={fieldError}>{fieldErrors.email}</p>}
        </div>
        <div className={field}>
          <label className={fieldLabel} htmlFor="login-password">Password</label>
          <input
            id="login-password"
            className={textInput}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            aria-invalid={fieldErrors.password === undefined ? undefined : true}
            aria-describedby={fieldErrors.password === undefined ? undefined : "login-password-error"}
            onChange={(event) => form.send({ type: "login.change", field: "password", value: event.target.value })}
          />
          {fieldErrors.password === undefined ? null : <p id="login-password-error" className={fieldError}>{fieldErrors.password}</p>}
        </div>
        <div className={styles.row}>
          <Link className={styles.link} to="/forgot-password">Forgot password?</Link>
        </div>
        {error === null ? null : <p role="alert" className={styles.error}>{error}</p>}
        <button type="submit" className={button({ tone: "primary", block: true })} disabled={submitting}>
          Sign in
        </button>
      </form>
    </>
  )
}
