import type { ApiFailure, SessionEnded } from "../../domain/api.ts"
import { isSessionEnded } from "../../domain/api.ts"

// An invoked call's answer, as machines see it: the endpoint's answer, a failure body, the end of
// the session (a 403), or undefined when the call's actor itself failed and there is no answer.

/** Endpoint answers are decoded with their own schema, which never has `status`; only the shared failure body carries it. */
export const isFailure = (result: object | undefined): result is ApiFailure | SessionEnded | undefined =>
  result === undefined || "status" in result || isSessionEnded(result)

export const detailOf = (result: object | undefined): string | undefined =>
  result !== undefined && "detail" in result && typeof result.detail === "string" && result.detail !== "" ? result.detail : undefined

/**
 * The server's reason when it refused for now (429: too many attempts, an account's password
 * checks paused): it says what happened and for how long, which "try again" alone would not.
 */
export const refusedForNow = (result: object | undefined): string | undefined =>
  result !== undefined && "status" in result && result.status === 429 ? detailOf(result) : undefined

/** Nothing answered: the network failed or the request never left (status 0), or the call's actor failed. */
const isUnanswered = (result: object | undefined): boolean => result === undefined || ("status" in result && result.status === 0)

export const CONNECTION_HINT = "Check your connection and try again."
export const RETRY_HINT = "Please try again in a moment."

/**
 * The sentence that follows "what failed" for people: the server's own reason when it refused
 * for now, a connection hint when nothing answered, a plain retry otherwise. Details the http
 * adapter makes up (a wrong content type, an unreadable answer) are for the console, not people.
 */
export const failureHint = (result: object | undefined): string =>
  refusedForNow(result) ?? (isUnanswered(result) ? CONNECTION_HINT : RETRY_HINT)

/**
 * A failure that says nothing of what was asked: nothing answered, the server failed (5xx) or
 * asked to wait (429). Asking again later may well work, so a page offers to.
 */
export const isTransientFailure = (result: object | undefined): boolean =>
  isUnanswered(result) ||
  (result !== undefined && "status" in result && typeof result.status === "number" && (result.status >= 500 || result.status === 429))

/** A `{ success }` answer that says yes. */
export const isSuccess = (result: object | undefined): boolean => !isFailure(result) && "success" in result && result.success === true
