import { useActorRef, useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import {
  selectIsUpdatingDetails,
  selectProfileDetailsErrors,
  selectProfileDetailsValues,
  type ProfileDetailsField
} from "../../machines/account/profileDetailsMachine.ts"
import { button } from "../shared/controls.css.ts"
import { useServices } from "../shared/ServicesContext.tsx"
import * as forms from "./AccountForm.css.ts"
import { FormField } from "../shared/FormField.tsx"
import * as styles from "./ProfileView.css.ts"

interface ProfileDetailsFormProps {
  readonly username: string
  readonly email: string
}

/** 'Update email or username': a new email only takes effect once its mailed link is followed. */
export const ProfileDetailsForm = ({ username, email }: ProfileDetailsFormProps) => {
  const services = useServices()
  const details = useActorRef(services.profileDetails, { ...services.actorOptions, input: { username, email } })
  const values = useSelector(details, selectProfileDetailsValues)
  const errors = useSelector(details, selectProfileDetailsErrors)
  const submitting = useSelector(details, selectIsUpdatingDetails)
  const change = (field: ProfileDetailsField) => (value: string) => details.send({ type: "profileDetails.change", field, value })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    details.send({ type: "profileDetails.submit" })
  }
  return (
    <section className={styles.panel} aria-labelledby="details-heading">
      <h2 id="details-heading" className={styles.panelHeading}>Update email or username</h2>
      <form className={forms.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <FormField id="details-username" label="Username" autoComplete="nickname" value={values.username} error={errors.username} onChange={change("username")} />
        <FormField
          id="details-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          hint="A new address takes effect once you confirm it by email."
          onChange={change("email")}
        />
        <FormField
          id="details-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          hint="Your current password, to confirm it is you."
          onChange={change("password")}
        />
        <div className={styles.submitRow}>
          <button type="submit" className={button({ tone: "primary" })} disabled={submitting}>
            {submitting ? "Saving…" : "Save changes"}
          </button>
        </div>
      </form>
    </section>
  )
}
