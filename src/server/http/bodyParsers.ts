import type { FastifyInstance } from "fastify"
import { invalidInput } from "./HttpFailure.ts"

export const MALFORMED_JSON = "Malformed JSON body"

/** A text/plain body, kept apart so only the endpoints that expect one will read it. */
export class PlainTextBody {
  readonly text: string
  #parsed: { readonly value: unknown } | undefined
  constructor(text: string) {
    this.text = text
  }

  /** The body read as JSON, parsed once however often it is asked for. */
  json(): unknown {
    this.#parsed ??= { value: parseJson(this.text) }
    return this.#parsed.value
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw invalidInput(MALFORMED_JSON)
  }
}

/**
 * JSON, leniently: an empty body is no body, because clients send the JSON content type on
 * body-less calls such as logout. Nothing but JSON and plain text is accepted (415 otherwise).
 * Prototype keys in the input are harmless: decoding copies only the keys a schema names.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body)
    if (text.trim() === "") return done(null, undefined)
    try {
      done(null, parseJson(text))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
  app.addContentTypeParser("text/plain", { parseAs: "string" }, (_request, body, done) => {
    done(null, new PlainTextBody(String(body)))
  })
}
