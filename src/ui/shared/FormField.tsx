import type { HTMLInputAutoCompleteAttribute } from "react"
import { field, fieldError, fieldLabel, textInput } from "./controls.css.ts"
import * as styles from "../account/AccountForm.css.ts"

interface FormFieldProps {
  readonly id: string
  readonly label: string
  readonly value: string
  readonly type?: "text" | "email" | "password"
  readonly autoComplete?: HTMLInputAutoCompleteAttribute
  /** The rule's message after a submit; announced as it appears. */
  readonly error?: string | undefined
  /** A line of help between the label and the input, read out with the input. */
  readonly hint?: string | undefined
  readonly readOnly?: boolean
  readonly onChange?: (value: string) => void
}

/** A labelled input with its help and its error tied to it for assistive technology. */
export const FormField = ({ id, label, value, type = "text", autoComplete, error, hint, readOnly = false, onChange }: FormFieldProps) => {
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [error === undefined ? null : errorId, hint === undefined ? null : hintId].filter((part) => part !== null).join(" ")
  return (
    <div className={field}>
      <label className={fieldLabel} htmlFor={id}>{label}</label>
      {hint === undefined ? null : <p id={hintId} className={styles.hint}>{hint}</p>}
      <input
        id={id}
        name={id}
        className={readOnly ? `${textInput} ${styles.readOnly}` : textInput}
        type={type}
        value={value}
        autoComplete={autoComplete}
        readOnly={readOnly}
        spellCheck={type === "email" ? false : undefined}
        autoCapitalize={type === "text" ? undefined : "none"}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy === "" ? undefined : describedBy}
        onChange={onChange === undefined ? undefined : (event) => onChange(event.target.value)}
      />
      {error === undefined ? null : <p id={errorId} className={fieldError} role="alert">{error}</p>}
    </div>
  )
}
