import { USERNAME_MAX_LENGTH } from "../../domain/Validation.ts"
import {
  type ProfileDetailsField,
  profileDetailsMachine,
  selectFirstInvalidField,
  selectIsUpdatingDetails,
  selectProfileDetailsErrors,
  selectProfileDetailsValues
} from "../../machines/account/profileDetailsMachine.ts"
import { bindFields, EmailField, FormField, focusField, PasswordField } from "../shared/FormField.tsx"
import { Panel } from "../shared/Panel.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { AccountForm } from "./AccountForm.tsx"

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
  const details = usePageActor(profileDetailsMachine, { input: { username, email } })
  const { values, errors, submitting } = useSelectors(details, {
    values: selectProfileDetailsValues,
    errors: selectProfileDetailsErrors,
    submitting: selectIsUpdatingDetails
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
  return (
    <Panel title="Update email or username" spacing="roomy">
      <AccountForm onSubmit={submit} submitting={submitting} submitLabel="Save changes" submittingLabel="Saving…" placement="panel">
        <FormField {...field("username")} label="Username" autoComplete="nickname" maxLength={USERNAME_MAX_LENGTH} />
        <EmailField {...field("email")} hint="A new address takes effect once you confirm it by email." />
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
