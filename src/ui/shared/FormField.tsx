import type { HTMLInputAutoCompleteAttribute } from "react"
import { PASSWORD_MAX_LENGTH } from "../../domain/Validation.ts"
import { field, fieldError, fieldHint, fieldLabel, readOnlyInput, textArea, textInput } from "./controls.css.ts"

export interface FormFieldProps {
  readonly id: string
  /** The form field's name; the id by default. */
  readonly name?: string
  readonly label: string
  readonly value: string
  /** `multiline` is a text area, for descriptions and requests. */
  readonly type?: "text" | "email" | "password" | "multiline"
  readonly autoComplete?: HTMLInputAutoCompleteAttribute
  /** The rule's message after a submit; announced as it appears. */
  readonly error?: string | undefined
  /** A line of help between the label and the input, read out with the input. */
  readonly hint?: string | undefined
  readonly readOnly?: boolean
  readonly maxLength?: number
  readonly onChange?: (value: string) => void
}

/** A labelled input (or text area) with its help and its error tied to it for assistive technology. */
export const FormField = ({
  id,
  name = id,
  label,
  value,
  type = "text",
  autoComplete,
  error,
  hint,
  readOnly = false,
  maxLength,
  onChange
}: FormFieldProps) => {
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [error === undefined ? null : errorId, hint === undefined ? null : hintId].filter((part) => part !== null).join(" ")
  const shared = {
    id,
    name,
    value,
    readOnly,
    maxLength,
    "aria-invalid": error === undefined ? undefined : true,
    "aria-describedby": describedBy === "" ? undefined : describedBy
  }
  return (
    <div className={field}>
      <label className={fieldLabel} htmlFor={id}>
        {label}
      </label>
      {hint === undefined ? null : (
        <p id={hintId} className={fieldHint}>
          {hint}
        </p>
      )}
      {type === "multiline" ? (
        <textarea
          {...shared}
          className={readOnly ? `${textInput} ${textArea} ${readOnlyInput}` : `${textInput} ${textArea}`}
          onChange={onChange === undefined ? undefined : (event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...shared}
          className={readOnly ? `${textInput} ${readOnlyInput}` : textInput}
          type={type}
          autoComplete={autoComplete}
          spellCheck={type === "email" ? false : undefined}
          autoCapitalize={type === "text" ? undefined : "none"}
          onChange={onChange === undefined ? undefined : (event) => onChange(event.target.value)}
        />
      )}
      {error === undefined ? null : (
        <p id={errorId} className={fieldError} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

/** A password input, as long as the server takes one and no longer. */
export const PasswordField = (props: Omit<FormFieldProps, "type" | "maxLength">) => (
  <FormField {...props} type="password" maxLength={PASSWORD_MAX_LENGTH} />
)

/** An email address: the label every form gives it, the keyboard and autofill that suit it. */
export const EmailField = (props: Omit<FormFieldProps, "type" | "label">) => (
  <FormField autoComplete="email" {...props} label="Email" type="email" />
)

/**
 * After a submit the form's rules refused, moves the focus to the first field with a message (the
 * machine names it; `ids` gives each field's input), so keyboard and screen-reader users land on it.
 * Called right after sending the submit: the rules run as the event is taken, so the messages are there.
 */
export const focusField = <F extends string>(ids: Readonly<Record<F, string>>, field: F | undefined): void => {
  if (field !== undefined) document.getElementById(ids[field])?.focus()
}

/** What a form's machine gives each of its fields: its input's id, its value and message, and the change to send. */
export interface BoundField {
  readonly id: string
  readonly value: string
  readonly error: string | undefined
  readonly readOnly: boolean
  readonly onChange: (value: string) => void
}

interface FormState<F extends string> {
  readonly ids: Readonly<Record<F, string>>
  readonly values: Readonly<Record<F, string>>
  readonly errors: Partial<Record<F, string>>
  /** While the form is being sent, what is being sent stays as it was. */
  readonly submitting: boolean
  readonly change: (field: F, value: string) => void
}

/** Binds a form's fields to its machine, so each field is written once: `<FormField {...field("email")} label="Email" />`. */
export const bindFields =
  <F extends string>({ ids, values, errors, submitting, change }: FormState<F>) =>
  (field: F): BoundField => ({
    id: ids[field],
    value: values[field],
    error: errors[field],
    readOnly: submitting,
    onChange: (value) => change(field, value)
  })
