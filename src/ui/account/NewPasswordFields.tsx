import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../domain/Validation.ts"
import { type BoundField, FormField } from "../shared/FormField.tsx"

interface NewPasswordFieldsProps {
  readonly password: BoundField
  readonly confirm: BoundField
  /** `first` when there is no password yet (registration); `new` when it replaces one. */
  readonly wording: "first" | "new"
  /** What else choosing it does, after its length rule. */
  readonly note?: string
}

const LENGTHS = `At least ${PASSWORD_MIN_LENGTH} characters, at most ${PASSWORD_MAX_LENGTH.toLocaleString("en-US")}.`

/**
 * A password being chosen and its confirmation (SPEC §5: at least 8 characters, the two the same).
 * No maxlength: the browser would cut a longer paste short without a word, and the account would
 * get a password nobody typed; the length rule refuses it with its message instead.
 */
export const NewPasswordFields = ({ password, confirm, wording, note }: NewPasswordFieldsProps) => (
  <>
    <FormField
      {...password}
      type="password"
      label={wording === "new" ? "New password" : "Password"}
      autoComplete="new-password"
      hint={note === undefined ? LENGTHS : `${LENGTHS} ${note}`}
    />
    <FormField
      {...confirm}
      type="password"
      label={wording === "new" ? "Confirm new password" : "Confirm password"}
      autoComplete="new-password"
    />
  </>
)
