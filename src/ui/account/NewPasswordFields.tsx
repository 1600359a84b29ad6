import { PASSWORD_MIN_LENGTH } from "../../domain/Validation.ts"
import { type BoundField, PasswordField } from "../shared/FormField.tsx"

interface NewPasswordFieldsProps {
  readonly password: BoundField
  readonly confirm: BoundField
  /** `first` when there is no password yet (registration); `new` when it replaces one. */
  readonly wording: "first" | "new"
  /** What else choosing it does, after its length rule. */
  readonly note?: string
}

/** A password being chosen and its confirmation (SPEC §5: at least 8 characters, the two the same). */
export const NewPasswordFields = ({ password, confirm, wording, note }: NewPasswordFieldsProps) => (
  <>
    <PasswordField
      {...password}
      label={wording === "new" ? "New password" : "Password"}
      autoComplete="new-password"
      hint={`At least ${PASSWORD_MIN_LENGTH} characters.${note === undefined ? "" : ` ${note}`}`}
    />
    <PasswordField {...confirm} label={wording === "new" ? "Confirm new password" : "Confirm password"} autoComplete="new-password" />
  </>
)
