import type { EndpointName, ResponseOf } from "./api.ts"

/** The server answered with the endpoint's own body, decoded by its schema. */
export interface Answered<B> {
  readonly _tag: "ok"
  readonly body: B
}

/** The server said no with an HTTP failure (4xx, 5xx): its status, result code and detail. */
export interface Refused {
  readonly _tag: "refused"
  readonly status: number
  readonly resultCode?: number | undefined
  readonly detail: string
}

/** A 403: the session is gone and the visitor is on the way to /login (SPEC §8), so there is nothing of the call itself to show. */
export interface SessionEnded {
  readonly _tag: "sessionEnded"
}

/** Nothing came back: no connection, no answer in time, or the caller gave up on it. */
export interface Unreachable {
  readonly _tag: "unreachable"
  readonly reason: "network" | "timeout" | "cancelled"
  readonly detail: string
}

/** What every call of the contract comes to: one of four tags, decoded once, never a rejection. */
export type Answer<N extends EndpointName> = Answered<ResponseOf<N>> | Refused | SessionEnded | Unreachable
/** An answer of any endpoint, for what only looks at how it failed. */
export type AnyAnswer = Answered<unknown> | Refused | SessionEnded | Unreachable

export const answered = <B>(body: B): Answered<B> => ({ _tag: "ok", body })
export const refused = (status: number, detail: string, resultCode?: number): Refused =>
  resultCode === undefined ? { _tag: "refused", status, detail } : { _tag: "refused", status, resultCode, detail }
export const SESSION_ENDED: SessionEnded = { _tag: "sessionEnded" }
export const unreachable = (reason: Unreachable["reason"], detail: string): Unreachable => ({ _tag: "unreachable", reason, detail })

/** The endpoint's body when the server answered with it. */
export const bodyOf = <B>(answer: Answered<B> | Refused | SessionEnded | Unreachable): B | undefined =>
  answer._tag === "ok" ? answer.body : undefined

/** What was said about the call, if anything: the body's detail, the refusal's, or why nothing came back. */
export const detailOf = (answer: AnyAnswer): string | undefined => {
  const detail =
    answer._tag === "ok"
      ? typeof answer.body === "object" && answer.body !== null && "detail" in answer.body && typeof answer.body.detail === "string"
        ? answer.body.detail
        : undefined
      : answer._tag === "sessionEnded"
        ? undefined
        : answer.detail
  return detail === "" ? undefined : detail
}

/** A `{ success }` body that says yes. */
export const isSuccess = (answer: AnyAnswer): boolean =>
  answer._tag === "ok" &&
  typeof answer.body === "object" &&
  answer.body !== null &&
  "success" in answer.body &&
  answer.body.success === true

/** The `data` of a `{ success, data }` answer that says yes; undefined for any other answer. */
export const dataOf = <D>(
  answer: Answered<{ readonly success: boolean; readonly data: D }> | Refused | SessionEnded | Unreachable
): D | undefined => (answer._tag === "ok" && answer.body.success ? answer.body.data : undefined)
