import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import { Link } from "react-router-dom"
import {
  type LoginField,
  selectEmail,
  selectFieldErrors,
  selectFirstInvalidField,
  selectIsSubmitting,
  selectLoginError,
  selectPassword,
  selectResendVerification
} from "../../machines/account/loginFormMachine.ts"
import { selectLoginForm } from "../../machines/shell/sessionMachine.ts"
import { bindFields, EmailField, FormField, focusField } from "../shared/FormField.tsx"
import { useSession } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { AccountForm } from "./AccountForm.tsx"
import * as styles from "./LoginView.css.ts"
import { ResendVerification } from "./ResendVerification.tsx"

type LoginFormRef = NonNullable<ReturnType<typeof selectLoginForm>>

const FIELD_IDS: Readonly<Record<LoginField, string>> = { email: "login-email", password: "login-password" }

export const LoginView = () => {
  const form = useSelector(useSession(), selectLoginForm)
  // the form only exists without a session; with one the route redirects home
  return form === undefined ? null : <LoginForm form={form} />
}

const LoginForm = ({ form }: { readonly form: LoginFormRef }) => {
  const { email, password, fieldErrors, error, submitting, resender } = useSelectors(form, {
    email: selectEmail,
    password: selectPassword,
    fieldErrors: selectFieldErrors,
    error: selectLoginError,
    submitting: selectIsSubmitting,
    resender: selectResendVerification
  })
  const field = bindFields({
    ids: FIELD_IDS,
    values: { email, password },
    errors: fieldErrors,
    submitting,
    change: (name: LoginField, value) => form.send({ type: "login.change", field: name, value })
  })
  // arriving at the page, the email field takes the focus (unless the visitor has already moved it)
  useEffect(() => {
    if (document.activeElement === null || document.activeElement === document.body) document.getElementById(FIELD_IDS.email)?.focus()
  }, [])
  const submit = () => {
    form.send({ type: "login.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(form.getSnapshot()))
  }
  return (
    <>
      <h1 className={surfaces.pageTitle}>Sign in</h1>
      <AccountForm
        onSubmit={submit}
        submitting={submitting}
        submitLabel="Sign in"
        alert={error}
        belowAlert={resender === undefined ? null : <ResendVerification resender={resender} />}
        after={
          <div className={styles.row}>
            <Link className={styles.link} to="/forgot-password">
              Forgot password?
            </Link>
          </div>
        }
      >
        <EmailField {...field("email")} name="email" autoComplete="username" />
        <FormField {...field("password")} name="password" label="Password" type="password" autoComplete="current-password" />
      </AccountForm>
    </>
  )
}
