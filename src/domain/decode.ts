import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** A decoding failure as one readable line: `email: Enter a valid email address.` */
export const describeIssue = (error: Schema.SchemaError): string => {
  const { issues } = formatter(error.issue)
  return issues
    .map((issue) => {
      const path = (issue.path ?? []).map((key) => (typeof key === "object" ? String(key.key) : String(key))).join(".")
      return path === "" ? issue.message : `${path}: ${issue.message}`
    })
    .join("; ")
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly detail: string }

/** Decodes unknown input, collecting every problem into one detail string. */
export const decodeWith = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (input: unknown): Decoded<S["Type"]> => {
    const result = decode(input)
    return Result.isSuccess(result)
      ? { ok: true, value: result.success }
      : { ok: false, detail: describeIssue(result.failure) }
  }
}
