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

/**
 * Decodes unknown input, collecting every problem into one detail string. Good input takes the
 * decoder's direct path, which stops at the first problem; only input that fails is decoded again
 * to gather all of them (asking for every error up front takes a slower path for every input).
 */
export const decodeWith = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema)
  const decodeAll = Schema.decodeUnknownResult(schema, { errors: "all" })
  return (input: unknown): Decoded<S["Type"]> => {
    const result = decode(input)
    if (Result.isSuccess(result)) return { ok: true, value: result.success }
    const all = decodeAll(input)
    return Result.isSuccess(all) ? { ok: true, value: all.success } : { ok: false, detail: describeIssue(all.failure) }
  }
}

/**
 * The first message `schema` has for a value it refuses, undefined for one it takes: a form's
 * rule made from the same schema the server decodes with, so both say the same words.
 */
export const firstIssueWith = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): string | undefined => {
    const result = decode(input)
    return Result.isSuccess(result) ? undefined : (formatter(result.failure.issue).issues[0]?.message ?? "Invalid value")
  }
}

// C0 controls and DEL, but for tab, line feed and carriage return (a ticket's lines): no field
// of the contract holds them, and PostgreSQL refuses a NUL outright.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/
export const CONTROL_CHARACTERS_MESSAGE = "Control characters are not allowed"

/** Where in `input` a text holds a control character (`subject`, `events.0.ids.media_id`), or undefined. */
export const controlCharacterPath = (input: unknown): string | undefined => {
  // iterative, so a deeply nested body cannot exhaust the stack
  const pending: Array<readonly [unknown, string]> = [[input, ""]]
  while (pending.length > 0) {
    const [value, path] = pending.pop() as readonly [unknown, string]
    if (typeof value === "string") {
      if (CONTROL.test(value)) return path
    } else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) pending.push([inner, path === "" ? key : `${path}.${key}`])
    }
  }
  return undefined
}

/** Decodes what a client sent: first no control characters anywhere in it, then the schema. */
export const decodeInputWith = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
  const decode = decodeWith(schema)
  return (input: unknown): Decoded<S["Type"]> => {
    const path = controlCharacterPath(input)
    if (path === undefined) return decode(input)
    return { ok: false, detail: path === "" ? CONTROL_CHARACTERS_MESSAGE : `${path}: ${CONTROL_CHARACTERS_MESSAGE}` }
  }
}
