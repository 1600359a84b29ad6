import { type Answered, type AnyAnswer, detailOf, type Refused, type SessionEnded, type Unreachable } from "../../domain/contract/answer.ts"
import { ResultCode } from "../../domain/ResultCode.ts"

// How machines read a call's tagged answer (domain/contract/answer.ts): shared guards, so no
// machine declares answer types or failure branches of its own.

export const CONNECTION_HINT = "Check your connection and try again."
export const RETRY_HINT = "Please try again in a moment."

/** The server's reason when it refused for now (429: too many attempts, an account's password checks paused). */
export const refusedForNow = (answer: AnyAnswer): string | undefined =>
  answer._tag === "refused" && answer.status === 429 && answer.detail !== "" ? answer.detail : undefined

/**
 * The sentence that follows "what failed" for people: the server's own reason when it refused
 * for now, a connection hint when nothing answered, a plain retry otherwise. Details the http
 * adapter makes up (a wrong content type, an unreadable answer) are for the console, not people.
 */
export const failureHint = (answer: AnyAnswer): string =>
  refusedForNow(answer) ?? (answer._tag === "unreachable" ? CONNECTION_HINT : RETRY_HINT)

/** What people read after a call failed: what the server or the network said, or else the hint. */
export const failureReason = (answer: AnyAnswer): string => detailOf(answer) ?? failureHint(answer)

/**
 * A failure that says nothing of what was asked: nothing answered, the server failed (5xx) or
 * asked to wait (429). Asking again later may well work, so a page offers to.
 */
export const isTransientFailure = (answer: AnyAnswer): boolean =>
  answer._tag === "unreachable" || (answer._tag === "refused" && (answer.status >= 500 || answer.status === 429))

/** A result-coded body (SPEC §8) that says yes. */
export const isAccepted = (
  answer: Answered<{ readonly success: boolean; readonly resultCode: number }> | Refused | SessionEnded | Unreachable
): boolean => answer._tag === "ok" && answer.body.success && answer.body.resultCode === ResultCode.SUCCESS

/** The result code the server gave, in its body or its failure. */
export const resultCodeOf = (answer: AnyAnswer): number | undefined => {
  if (answer._tag === "refused") return answer.resultCode
  if (answer._tag !== "ok" || typeof answer.body !== "object" || answer.body === null || !("resultCode" in answer.body)) return undefined
  return typeof answer.body.resultCode === "number" ? answer.body.resultCode : undefined
}
