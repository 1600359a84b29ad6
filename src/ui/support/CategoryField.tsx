import { TICKET_CATEGORIES } from "../../domain/Ticket.ts"
import { field, fieldError, fieldLabel, textInput } from "../shared/controls.css.ts"
import * as styles from "./ContactView.css.ts"

interface CategoryFieldProps {
  readonly id: string
  readonly value: string
  readonly error: string | undefined
  readonly onChange: (value: string) => void
}

/** The ticket's category (SPEC §3), as FormField lays out a field: label, control, its message tied to it. */
export const CategoryField = ({ id, value, error, onChange }: CategoryFieldProps) => {
  const errorId = `${id}-error`
  return (
    <div className={field}>
      <label className={fieldLabel} htmlFor={id}>
        Category
      </label>
      <select
        id={id}
        name="type"
        className={`${textInput} ${styles.select}`}
        value={value}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={error === undefined ? undefined : errorId}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">Choose a category</option>
        {TICKET_CATEGORIES.map((category) => (
          <option key={category.value} value={String(category.value)}>
            {category.label}
          </option>
        ))}
      </select>
      {error === undefined ? null : (
        <p id={errorId} className={fieldError} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
