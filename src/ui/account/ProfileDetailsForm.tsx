import { USERNAME_MAX_LENGTH } from "../../domain/Validation.ts"
import {
  type ProfileDetailsField,
  profileDetailsMachine,
  selectFirstInvalidField,
  selectIsCancellingEmailChange,
  selectIsUpdatingDetails,
  selectPendingEmail,
  selectProfileDetailsErrors,
  selectProfileDetailsValues
} from "../../machines/account/profileDetailsMachine.ts"
import { button } from "../shared/controls.css.ts"
import { EmailAddress } from "../shared/EmailAddress.tsx"
import { bindFields, EmailField, FormField, focusField, PasswordField } from "../shared/FormField.tsx"
import { Panel } from "../shared/Panel.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { AccountForm } from "./AccountForm.tsx"
import * as styles from "./ProfileView.css.ts"

const FIELD_IDS: Readonly<Record<ProfileDetailsField, string>> = {
  username: "details-username",
  email: "details-email",
  password: "details-password"
}

interface ProfileDetailsFormProps {
  readonly username: string
  readonly email: string
  /** A new address the server says is still waiting for its confirmation. */
  readonly pendingEmail?: string | undefined
}

/** 'Update email or username': a new email only takes effect once its mailed link is followed. */
export const ProfileDetailsForm = ({ username, email, pendingEmail }: ProfileDetailsFormProps) => {
  const details = usePageActor(profileDetailsMachine, { input: { username, email, pendingEmail } })
  const { values, errors, submitting, pending, cancelling } = useSelectors(details, {
    values: selectProfileDetailsValues,
    errors: selectProfileDetailsErrors,
    submitting: selectIsUpdatingDetails,
    pending: selectPendingEmail,
    cancelling: selectIsCancellingEmailChange
  })
  const field = bindFields({
    ids: FIELD_IDS,
    values,
    errors,
    submitting,
    change: (name: ProfileDetailsField, value) => details.send({ type: "profileDetails.change", field: name, value })
  })
  const submit = () => {
    details.send({ type: "profileDetails.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(details.getSnapshot()))
  }
  const cancelChange = () => {
    details.send({ type: "profileDetails.cancelEmailChange" })
    focusField(FIELD_IDS, selectFirstInvalidField(details.getSnapshot()))
  }
  return (
    <Panel title="Update email or username" spacing="roomy">
      <AccountForm onSubmit={submit} submitting={submitting} submitLabel="Save changes" submittingLabel="Saving…" placement="panel">
        <FormField {...field("username")} label="Username" autoComplete="nickname" maxLength={USERNAME_MAX_LENGTH} />
        <EmailField {...field("email")} hint="A new address takes effect once you confirm it by email." />
        {pending === null ? null : (
          <div className={styles.pending}>
            <p className={styles.pendingText}>
              Waiting for confirmation: <EmailAddress address={pending} />
            </p>
            <button type="button" className={button({ tone: "secondary" })} aria-disabled={submitting || undefined} onClick={cancelChange}>
              {cancelling ? "Cancelling…" : "Cancel the change"}
            </button>
          </div>
        )}
        <PasswordField
          {...field("password")}
          label="Password"
          autoComplete="current-password"
          hint="Your current password, to confirm it is you."
        />
      </AccountForm>
    </Panel>
  )
}
