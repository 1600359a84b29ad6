import type { ApiFailure } from "../../domain/api.ts"

/**
 * Endpoint answers are decoded with their own schema, which never has `status`; only the shared
 * failure body carries it. `undefined` is what a 403 leaves behind.
 */
export const isFailure = (result: object | undefined): result is ApiFailure | undefined =>
  result === undefined || "status" in result

export const detailOf = (result: object | undefined): string | undefined =>
  result !== undefined && "detail" in result && typeof result.detail === "string" && result.detail !== ""
    ? result.detail
    : undefined

/** A `{ success }` answer that says yes. */
export const isSuccess = (result: object | undefined): boolean =>
  !isFailure(result) && "success" in result && result.success === true
