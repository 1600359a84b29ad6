import type { ApiFailure, SessionEnded } from "../../domain/api.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { isFailure } from "./apiResult.ts"

/** A mailed link opened without its token: nothing to send to the server. */
export const MISSING_TOKEN_MESSAGE = "This link is incomplete. Open the whole link from the email."

/** The text of every field of a form, by field name. */
export type FieldValues<F extends string> = Readonly<Record<F, string>>
export type FieldErrors<F extends string> = Partial<Record<F, string>>

/** One rule per field; a rule sees every value, so a confirmation can compare with its password. */
export type FieldRules<F extends string> = { readonly [K in F]?: (values: FieldValues<F>) => string | undefined }

/** The message of every field that breaks its rule. */
export const validateFields = <F extends string>(rules: FieldRules<F>, values: FieldValues<F>): FieldErrors<F> => {
  const errors: FieldErrors<F> = {}
  for (const field of Object.keys(rules) as Array<F>) {
    const message = rules[field]?.(values)
    if (message !== undefined) errors[field] = message
  }
  return errors
}

export const isValidForm = <F extends string>(rules: FieldRules<F>, values: FieldValues<F>): boolean =>
  Object.keys(validateFields(rules, values)).length === 0

/** The form after typing into one field: the new value, and that field's message gone until the next submit. */
export const changeField = <F extends string>(
  form: { readonly values: FieldValues<F>; readonly fieldErrors: FieldErrors<F> },
  field: F,
  value: string
): { values: FieldValues<F>; fieldErrors: FieldErrors<F> } => {
  const fieldErrors = { ...form.fieldErrors }
  delete fieldErrors[field]
  return { values: { ...form.values, [field]: value }, fieldErrors }
}

/** A result-coded answer that says yes. Failure bodies (400, 429, no network) and an ended session never do. */
export const isAccepted = (
  answer: { readonly success: boolean; readonly resultCode: number } | ApiFailure | SessionEnded | undefined
): boolean => !isFailure(answer) && answer.success && answer.resultCode === ResultCode.SUCCESS

/**
 * The server looked at the request and said no (a result code). Failure bodies are different:
 * the request may succeed if simply sent again, so forms keep what was typed.
 */
export const isRefusal = (answer: object | undefined): boolean => !isFailure(answer)

/**
 * The first of `fields` (listed in the order the form shows them) that has a message: where the
 * focus goes after a submit the form's rules refused, so keyboard and screen-reader users land on it.
 */
export const firstInvalidField = <F extends string>(fields: ReadonlyArray<F>, errors: FieldErrors<F>): F | undefined =>
  fields.find((field) => errors[field] !== undefined)
