import * as Schema from "effect/Schema"
import { ResultCodeSchema } from "../ResultCode.ts"

/** Who may call an endpoint: anyone, a signed-in user, or staff. */
export type Access = "anyone" | "user" | "staff"
export type Method = "GET" | "POST"
export type AnySchema = Schema.ConstraintDecoder<unknown> & Schema.Top

/** One endpoint of the API as data: both ends read it, the server to route and decode, the browser to call and decode. */
export interface Endpoint<
  P extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  R extends AnySchema = AnySchema,
  Q extends AnySchema | undefined = AnySchema | undefined
> {
  readonly method: Method
  /** OpenAPI-style path; `{name}` segments are described by `params`. */
  readonly path: string
  readonly params: P
  /** The query string's parameters, each a string on the wire; absent when the endpoint takes none. */
  readonly query?: Q
  readonly body: B
  readonly response: R
  readonly access: Access
  readonly summary: string
}

/** An endpoint; `params`, `query` and `body` are left out when it takes none. */
export const endpoint = <
  R extends AnySchema,
  P extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined
>(spec: {
  readonly method: Method
  readonly path: string
  readonly params?: P
  readonly query?: Q
  readonly body?: B
  readonly response: R
  readonly access: Access
  readonly summary: string
}): Endpoint<P, B, R, Q> => ({ ...spec, params: spec.params as P, body: spec.body as B })

/** The failure body every endpoint may answer with (4xx/5xx). */
export const ApiFailure = Schema.Struct({
  success: Schema.Literal(false),
  status: Schema.Number,
  resultCode: Schema.optionalKey(ResultCodeSchema),
  detail: Schema.String
})
export type ApiFailure = typeof ApiFailure.Type

/** A yes or no, with a detail for people. */
export const OkResponse = Schema.Struct({ success: Schema.Boolean, detail: Schema.optionalKey(Schema.String) })

/** A result-coded answer: success, the code of SPEC §8 and a detail for people. */
export const CodedResponse = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  detail: Schema.optionalKey(Schema.String)
})

/** `{ success, data }`: the answer of the endpoints that list something (SPEC §7). */
export const dataResponse = <S extends AnySchema>(schema: S) => Schema.Struct({ success: Schema.Boolean, data: schema })

/** Fills `{name}` segments of a contract path, and adds the query's parameters that are set. */
export const buildPath = (path: string, params: Record<string, string> | undefined, query?: Record<string, string | undefined>): string => {
  const filled = path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params?.[key] ?? ""))
  const search = new URLSearchParams(Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined))
  return search.size === 0 ? filled : `${filled}?${search}`
}
