import {
  type ProfilePasswordField,
  profilePasswordMachine,
  selectFirstInvalidField,
  selectIsUpdatingPassword,
  selectProfilePasswordErrors,
  selectProfilePasswordValues
} from "../../machines/account/profilePasswordMachine.ts"
import { bindFields, focusField, PasswordField } from "../shared/FormField.tsx"
import { Panel } from "../shared/Panel.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { AccountForm } from "./AccountForm.tsx"
import { NewPasswordFields } from "./NewPasswordFields.tsx"

const FIELD_IDS: Readonly<Record<ProfilePasswordField, string>> = {
  currentPassword: "password-current",
  newPassword: "password-new",
  confirmPassword: "password-confirm"
}

/** 'Update password': current, new and its confirmation; emptied once the server agrees. */
export const ProfilePasswordForm = () => {
  const password = usePageActor(profilePasswordMachine)
  const { values, errors, submitting } = useSelectors(password, {
    values: selectProfilePasswordValues,
    errors: selectProfilePasswordErrors,
    submitting: selectIsUpdatingPassword
  })
  const field = bindFields({
    ids: FIELD_IDS,
    values,
    errors,
    submitting,
    change: (name: ProfilePasswordField, value) => password.send({ type: "profilePassword.change", field: name, value })
  })
  const submit = () => {
    password.send({ type: "profilePassword.submit" })
    focusField(FIELD_IDS, selectFirstInvalidField(password.getSnapshot()))
  }
  return (
    <Panel title="Update password" spacing="roomy">
      <AccountForm onSubmit={submit} submitting={submitting} submitLabel="Update password" submittingLabel="Updating…" placement="panel">
        <PasswordField {...field("currentPassword")} label="Current password" autoComplete="current-password" />
        <NewPasswordFields
          password={field("newPassword")}
          confirm={field("confirmPassword")}
          wording="new"
          note="Your other devices will be signed out."
        />
      </AccountForm>
    </Panel>
  )
}
