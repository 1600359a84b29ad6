import { useActorRef, useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import {
  type ProfilePasswordField,
  selectFirstInvalidField,
  selectIsUpdatingPassword,
  selectProfilePasswordErrors,
  selectProfilePasswordValues
} from "../../machines/account/profilePasswordMachine.ts"
import { button } from "../shared/controls.css.ts"
import { focusField, PasswordField } from "../shared/FormField.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as forms from "./AccountForm.css.ts"
import * as styles from "./ProfileView.css.ts"

const FIELD_IDS: Readonly<Record<ProfilePasswordField, string>> = {
  currentPassword: "password-current",
  newPassword: "password-new",
  confirmPassword: "password-confirm"
}

/** 'Update password': current, new and its confirmation; emptied once the server agrees. */
export const ProfilePasswordForm = () => {
  const services = useServices()
  const password = useActorRef(services.profilePassword, services.actorOptions)
  const values = useSelector(password, selectProfilePasswordValues)
  const errors = useSelector(password, selectProfilePasswordErrors)
  const submitting = useSelector(password, selectIsUpdatingPassword)
  const change = (field: ProfilePasswordField) => (value: string) => password.send({ type: "profilePassword.change", field, value })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    password.send({ type: "profilePassword.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(password.getSnapshot()))
  }
  return (
    <section className={surfaces.panel({ spacing: "roomy" })} aria-labelledby="password-heading">
      <h2 id="password-heading" className={surfaces.panelTitle}>
        Update password
      </h2>
      <form className={forms.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <PasswordField
          id={FIELD_IDS.currentPassword}
          label="Current password"
          autoComplete="current-password"
          value={values.currentPassword}
          error={errors.currentPassword}
          readOnly={submitting}
          onChange={change("currentPassword")}
        />
        <PasswordField
          id={FIELD_IDS.newPassword}
          label="New password"
          autoComplete="new-password"
          value={values.newPassword}
          error={errors.newPassword}
          hint="At least 8 characters. Your other devices will be signed out."
          readOnly={submitting}
          onChange={change("newPassword")}
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
        <div className={styles.submitRow}>
          <button type="submit" className={button({ tone: "primary" })} aria-disabled={submitting || undefined}>
            {submitting ? "Updating…" : "Update password"}
          </button>
        </div>
      </form>
    </section>
  )
}
