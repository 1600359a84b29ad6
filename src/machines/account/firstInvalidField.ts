import type { FieldErrors } from "../shared/formFields.ts"

/**
 * The first of `fields` (listed in the order the form shows them) that has a message: where the
 * focus goes after a submit the form's rules refused, so keyboard and screen-reader users land on it.
 */
export const firstInvalidField = <F extends string>(fields: ReadonlyArray<F>, errors: FieldErrors<F>): F | undefined =>
  fields.find((field) => errors[field] !== undefined)
