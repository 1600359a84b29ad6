import fc from "fast-check"
import type { Endpoint } from "../../src/domain/contract/endpoint.ts"
import { HUGE_TEXT, hostileValue, jsonText, mutated } from "./hostileValues.ts"
import { schemaArbitrary } from "./schemaArbitrary.ts"

/** One request as `inject` sends it; printed short, as a fuzz counterexample. */
export class HostileRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly payload: string | Buffer | undefined
  /** Sent instead of the caller's own Token, when the caller has none. */
  readonly bogusToken: string | undefined

  constructor(init: {
    method: string
    url: string
    headers: Record<string, string>
    payload: string | Buffer | undefined
    bogusToken: string | undefined
  }) {
    this.method = init.method
    this.url = init.url
    this.headers = init.headers
    this.payload = init.payload
    this.bogusToken = init.bogusToken
  }

  [fc.toStringMethod](): string {
    return this.describe()
  }

  describe(): string {
    const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text)
    const payload = this.payload === undefined ? "" : ` ${short(JSON.stringify(this.payload.toString()))}`
    return `${this.method} ${short(this.url)} ${JSON.stringify(this.headers)}${this.bogusToken === undefined ? "" : " +token"}${payload}`
  }
}

/** Every character percent-encoded as UTF-8, lone surrogates too (as the invalid bytes a client may send). */
export function percentEncoded(text: string): string {
  let out = ""
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index)
    const pairs = unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00
    if (pairs) {
      out += encodeURIComponent(text.slice(index, index + 2))
      index += 1
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 63), 0x80 | (unit & 63)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join("")
    } else {
      out += encodeURIComponent(text[index] ?? "")
    }
  }
  return out
}

const wireText = (value: unknown): string => (typeof value === "string" ? value : jsonText(value))

const RAW_SEGMENTS = ["%", "%E0%A4%A", "%ZZ", "%00", "%2F", "%2e%2e", "..", ".", "%C0%AF", "x".repeat(600)]

function pathOf(endpoint: Endpoint, hostile: boolean): fc.Arbitrary<string> {
  const valid = endpoint.params === undefined ? fc.constant({}) : schemaArbitrary(endpoint.params)
  const params = hostile ? mutated(valid) : valid
  const encoded = (value: unknown) => fc.constant(percentEncoded(wireText(value)))
  const segment = (value: unknown) =>
    hostile
      ? fc.oneof({ weight: 6, arbitrary: encoded(value) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) })
      : encoded(value)
  return params.chain((value) => {
    const fields = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
    const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "")
    return fc.tuple(...names.map((name) => segment(Object.hasOwn(fields, name) ? fields[name] : ""))).map((segments) => {
      let index = 0
      return endpoint.path.replace(/\{(\w+)\}/g, () => segments[index++] ?? "")
    })
  })
}

const EXTRA_QUERY = ["__proto__=1", "constructor[prototype][x]=1", "a=%ZZ", "tz=UTC&tz=Europe%2FOslo", `q=${HUGE_TEXT}`, "=", "&&", "x"]

function queryOf(endpoint: Endpoint, hostile: boolean): fc.Arbitrary<string> {
  const valid = endpoint.query === undefined ? fc.constant({}) : schemaArbitrary(endpoint.query)
  const own = hostile ? mutated(valid) : valid
  const fromValue = (value: unknown): Array<string> =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.entries(value).map(([key, inner]) => `${percentEncoded(key)}=${percentEncoded(wireText(inner))}`)
      : [`${percentEncoded(wireText(value))}`]
  const none = fc.constant<Array<string>>([])
  const extras = hostile
    ? fc.oneof({ weight: 4, arbitrary: none }, { weight: 1, arbitrary: fc.subarray(EXTRA_QUERY, { maxLength: 2 }) })
    : none
  return fc.tuple(own, extras).map(([value, extra]) => {
    const parts = [...fromValue(value), ...extra].filter((part) => part !== "")
    return parts.length === 0 ? "" : `?${parts.join("&")}`
  })
}

// over the server's body limit (256 KB)
const OVERSIZE = `{"padding":"${"x".repeat(300_000)}"}`
const MALFORMED = [
  "",
  "nope",
  "{'a': 1}",
  '{"a":1,}',
  "[1, 2",
  '{"a" 1}',
  "\u0000",
  "NaN",
  "undefined",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '"\\x41"'
]

/** The body's text: mostly its JSON, sometimes broken JSON, a BOM, or bytes that are not UTF-8. */
function payloadOf(value: unknown): fc.Arbitrary<string | Buffer> {
  const text = jsonText(value)
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(text) },
    { weight: 1, arbitrary: fc.nat().map((cut) => text.slice(0, cut % Math.max(1, text.length))) },
    { weight: 1, arbitrary: fc.constantFrom("}", ",", "]", " x", "\u0000", "/*c*/").map((tail) => text + tail) },
    { weight: 1, arbitrary: fc.constant(`\ufeff${text}`) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED, OVERSIZE) },
    { weight: 1, arbitrary: fc.constant(Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0xc3])])) }
  )
}

const formText = (value: unknown): string =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.entries(value)
        .map(([key, inner]) => `${percentEncoded(key)}=${percentEncoded(wireText(inner))}`)
        .join("&")
    : percentEncoded(wireText(value))
const multipartText = (value: unknown): string =>
  `--fuzz\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${jsonText(value)}\r\n--fuzz--\r\n`

const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json;charset=utf-16",
  "application/vnd.api+json"
]
const OTHER_TYPES = ["application/xml", "application/octet-stream", "text/html", "", "*/*", "application/json, text/plain"]

/** A body in some content type: JSON most often, also plain text (beacons), a form, multipart, none at all. */
function bodyOf(value: unknown): fc.Arbitrary<{ headers: Record<string, string>; payload: string | Buffer }> {
  const typed = (type: string) => (payload: string | Buffer) => ({ headers: { "content-type": type }, payload })
  return fc.oneof(
    { weight: 12, arbitrary: fc.tuple(fc.constantFrom(...JSON_TYPES), payloadOf(value)).map(([type, payload]) => typed(type)(payload)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom("text/plain", "text/plain;charset=UTF-8"), payloadOf(value))
        .map(([type, payload]) => typed(type)(payload))
    },
    { weight: 1, arbitrary: fc.constant(typed("application/x-www-form-urlencoded")(formText(value))) },
    { weight: 1, arbitrary: fc.constant(typed("multipart/form-data; boundary=fuzz")(multipartText(value))) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...OTHER_TYPES), payloadOf(value)).map(([type, payload]) => typed(type)(payload)) },
    { weight: 1, arbitrary: payloadOf(value).map((payload) => ({ headers: {}, payload })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("gzip", "deflate", "br", "identity", "x-unknown"), payloadOf(value))
        .map(([encoding, payload]) => ({
          headers: { "content-type": "application/json", "content-encoding": encoding },
          payload
        }))
    }
  )
}

// a page's Accept, which the site answers with the app on paths that are not the API's
const ACCEPTS = ["text/html", "text/html,application/xhtml+xml,*/*;q=0.8", "*/*", "application/xml", ""]
const BOGUS_TOKENS = ["x", "A".repeat(43), "A".repeat(10_000), "null", "Bearer abc", "' OR 1=1 --", "%00"]

/** What a well-behaved client sends: the entry's method, path, query and body, as its schemas want them. */
function cleanRequest(endpoint: Endpoint): fc.Arbitrary<HostileRequest> {
  const body = endpoint.body === undefined ? fc.constant(undefined) : schemaArbitrary(endpoint.body).map(jsonText)
  return fc.record({ path: pathOf(endpoint, false), query: queryOf(endpoint, false), body }).map(
    ({ path, query, body }) =>
      new HostileRequest({
        method: endpoint.method,
        url: `${path}${query}`,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        payload: body,
        bogusToken: undefined
      })
  )
}

/** The entry's method and path, mostly, with its schemas' values turned hostile and sent every which way. */
function dirtyRequest(endpoint: Endpoint): fc.Arbitrary<HostileRequest> {
  const otherMethods = ["GET", "POST", "PUT", "DELETE", "PATCH"].filter((method) => method !== endpoint.method)
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string>(endpoint.method) },
    { weight: 1, arbitrary: fc.constantFrom(...otherMethods) }
  )
  const value = endpoint.body === undefined ? hostileValue : mutated(schemaArbitrary(endpoint.body))
  // Endpoints without a body still get one now and then, GETs too.
  const bodyWeight = endpoint.body === undefined ? 1 : 8
  const body = fc.oneof(
    { weight: bodyWeight, arbitrary: value.chain(bodyOf).map((sent): typeof sent | undefined => sent) },
    { weight: 2, arbitrary: fc.constant(undefined) }
  )
  const bogusToken = fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...BOGUS_TOKENS) })
  const accept = fc.oneof(
    { weight: 5, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constantFrom(...ACCEPTS).map((value) => ({ accept: value })) }
  )
  return fc
    .record({ method, path: pathOf(endpoint, true), query: queryOf(endpoint, true), body, bogusToken, accept })
    .map(
      ({ method, path, query, body, bogusToken, accept }) =>
        new HostileRequest({ method, url: `${path}${query}`, headers: { ...accept, ...body?.headers }, payload: body?.payload, bogusToken })
    )
}

/** Requests for one contract entry: some as a client should send them, most of them hostile. */
export function hostileRequest(endpoint: Endpoint): fc.Arbitrary<HostileRequest> {
  return fc.oneof({ weight: 1, arbitrary: cleanRequest(endpoint) }, { weight: 3, arbitrary: dirtyRequest(endpoint) })
}
