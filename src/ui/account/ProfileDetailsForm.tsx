import { useActorRef, useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import { USERNAME_MAX_LENGTH } from "../../domain/Validation.ts"
import {
  type ProfileDetailsField,
  selectFirstInvalidField,
  selectIsUpdatingDetails,
  selectProfileDetailsErrors,
  selectProfileDetailsValues
} from "../../machines/account/profileDetailsMachine.ts"
import { button } from "../shared/controls.css.ts"
import { FormField, focusField, PasswordField } from "../shared/FormField.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as forms from "./AccountForm.css.ts"
import * as styles from "./ProfileView.css.ts"

const FIELD_IDS: Readonly<Record<ProfileDetailsField, string>> = {
  username: "details-username",
  email: "details-email",
  password: "details-password"
}

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
    focusField(FIELD_IDS, selectFirstInvalidField(details.getSnapshot()))
  }
  return (
    <section className={surfaces.panel({ spacing: "roomy" })} aria-labelledby="details-heading">
      <h2 id="details-heading" className={surfaces.panelTitle}>
        Update email or username
      </h2>
      <form className={forms.form} onSubmit={submit} noValidate aria-busy={submitting || undefined}>
        <FormField
          id={FIELD_IDS.username}
          label="Username"
          autoComplete="nickname"
          value={values.username}
          error={errors.username}
          maxLength={USERNAME_MAX_LENGTH}
          readOnly={submitting}
          onChange={change("username")}
        />
        <FormField
          id={FIELD_IDS.email}
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          error={errors.email}
          hint="A new address takes effect once you confirm it by email."
          readOnly={submitting}
          onChange={change("email")}
        />
        <PasswordField
          id={FIELD_IDS.password}
          label="Password"
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          hint="Your current password, to confirm it is you."
          readOnly={submitting}
          onChange={change("password")}
        />
        <div className={styles.submitRow}>
          <button type="submit" className={button({ tone: "primary" })} aria-disabled={submitting || undefined}>
            {submitting ? "Saving…" : "Save changes"}
          </button>
        </div>
      </form>
    </section>
  )
}
