import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import {
  type Api,
  api,
  type BodyOf,
  type EncodedResponseOf,
  type EndpointName,
  type ParamsOf,
  type QueryOf
} from "../../domain/contract/api.ts"
import type { Endpoint } from "../../domain/contract/endpoint.ts"
import { type Decoded, decodeInputWith, decodeWith } from "../../domain/decode.ts"
import { PlainTextBody } from "./bodyParsers.ts"
import { failureBody, forbidden, HttpFailure, invalidInput } from "./HttpFailure.ts"
import type { Session } from "./session.ts"

export interface HandlerContext<N extends EndpointName> {
  readonly params: ParamsOf<N>
  readonly query: QueryOf<N>
  readonly body: BodyOf<N>
  /** Guaranteed on user and staff endpoints; on public ones, present when the Token is live. */
  readonly session: Api[N]["access"] extends "anyone" ? Session | undefined : Session
  readonly request: FastifyRequest
  readonly reply: FastifyReply
}

/**
 * An answer already written as JSON by something that has checked it against its endpoint's
 * response schema (see `checkedJson`): sent as it is, without the per-answer check.
 */
export class CheckedJson<N extends EndpointName> {
  readonly json: string
  /** only to tell one endpoint's answers from another's in handler types */
  declare readonly endpoint: N
  private constructor(json: string) {
    this.json = json
  }
  /**
   * For a handler whose answer is put together from parts checked once (a list validated when it
   * was read, strings of known type per request): what `JSON.stringify` would give of an answer
   * that decodes with the endpoint's response schema.
   */
  static of<N extends EndpointName>(json: string): CheckedJson<N> {
    return new CheckedJson<N>(json)
  }
}

/** Answers the contract's response, as encoded on the wire (or checked and written, see CheckedJson), or throws an HttpFailure. */
export type Handler<N extends EndpointName> = (context: HandlerContext<N>) => Promise<EncodedResponseOf<N> | CheckedJson<N>>
export type Handlers = { readonly [N in EndpointName]?: Handler<N> }
/**
 * The handlers of one part of the contract (a feature's module, or a section of it): exactly its
 * endpoints, each typed by its own entry, so a handler cannot drift from its endpoint.
 */
export type HandlersOf<C extends { readonly [name: string]: Endpoint }> = { readonly [N in keyof C & EndpointName]: Handler<N> }

export interface ContractOptions {
  readonly handlers: Handlers
  /**
   * The live session `token` names, for a request from that client. For telemetry a session read
   * a little earlier stands (see TELEMETRY_ENDPOINTS).
   */
  readonly authenticate: (request: FastifyRequest, token: string, purpose: SessionPurpose) => Promise<Session | undefined>
  /** Per-route config, e.g. a stricter rate limit for sign-in. */
  readonly routeConfig?: (name: EndpointName) => FastifyContextConfig | undefined
}

// navigator.sendBeacon cannot set Content-Type: application/json without a CORS preflight, so
// beacons arrive as text/plain. Only endpoints fed by beacons accept that.
const BEACON_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>(["healthEvents", "closeStream"])

/** What a request does with its session: act for the viewer, or only report how playback goes. */
export type SessionPurpose = "request" | "telemetry"

// A playing viewer reports every few seconds. What these record changes nothing the viewer or staff
// act on, so a session read a little earlier may stand for them instead of a read per report.
const TELEMETRY_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>(["healthEvents", "analytics", "metering"])

type AnyContext = {
  params: unknown
  query: unknown
  body: unknown
  session: Session | undefined
  request: FastifyRequest
  reply: FastifyReply
}
type AnyHandler = (context: AnyContext) => Promise<unknown>

/** What Fastify names an answer it serialises itself, so a checked one goes out alike. */
const JSON_TYPE = "application/json; charset=utf-8"

/**
 * Most requests carry no query string at all: what the schema makes of no keys is worked out at
 * the first such request and answered from then on (the decoded value is never changed).
 */
const withoutKeysOnce = <T>(decode: (input: unknown) => Decoded<T>) => {
  let empty: Decoded<T> | undefined
  return (input: unknown): Decoded<T> => {
    if (!hasNoKeys(input)) return decode(input)
    empty ??= decode(input)
    return empty
  }
}

/** A plain object without a key of its own, as the query parser makes of no query string. */
const hasNoKeys = (input: unknown): boolean => {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return false
  const prototype: unknown = Object.getPrototypeOf(input)
  return (prototype === null || prototype === Object.prototype) && Reflect.ownKeys(input).length === 0
}

/** `/api/scheduler/{id}` → `/api/scheduler/:id` */
export const routePath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1")

/** Registers every endpoint of the contract that has a handler; the rest stay unrouted (404). */
export function registerContract(app: FastifyInstance, options: ContractOptions): void {
  for (const name of Object.keys(api) as EndpointName[]) {
    const handler = options.handlers[name] as AnyHandler | undefined
    if (handler !== undefined) registerEndpoint(app, name, api[name], handler, options)
  }
}

function registerEndpoint(app: FastifyInstance, name: EndpointName, endpoint: Endpoint, handler: AnyHandler, options: ContractOptions) {
  const decodeParams = endpoint.params === undefined ? undefined : decodeInputWith(endpoint.params)
  const decodeQuery = endpoint.query === undefined ? undefined : withoutKeysOnce(decodeInputWith(endpoint.query))
  const decodeBody = endpoint.body === undefined ? undefined : decodeInputWith(endpoint.body)
  const checkResponse = decodeWith(endpoint.response)
  const config = options.routeConfig?.(name)
  const purpose: SessionPurpose = TELEMETRY_ENDPOINTS.has(name) ? "telemetry" : "request"

  app.route({
    method: endpoint.method,
    url: routePath(endpoint.path),
    ...(config === undefined ? {} : { config }),
    handler: async (request, reply) => {
      const session = await authorise(request, endpoint, options, purpose, BEACON_ENDPOINTS.has(name) ? beaconToken(request) : undefined)
      const params = decodeParams === undefined ? undefined : decoded(decodeParams(request.params))
      const query = decodeQuery === undefined ? undefined : decoded(decodeQuery(request.query))
      const body = decodeBody === undefined ? undefined : decoded(decodeBody(requestBody(request, name)))
      const response = await handler({ params, query, body, session, request, reply })
      if (response instanceof CheckedJson) return reply.code(200).type(JSON_TYPE).send(response.json)
      const checked = checkResponse(response)
      if (!checked.ok) {
        // The handler broke the contract: the client would misread this, so it must not be sent.
        request.log.error({ endpoint: name, detail: checked.detail }, "response does not match the API contract")
        return reply.code(500).send(failureBody(500, "Internal server error"))
      }
      return reply.code(200).send(response)
    }
  })
}

async function authorise(
  request: FastifyRequest,
  endpoint: Endpoint,
  options: ContractOptions,
  purpose: SessionPurpose,
  bodyToken: string | undefined
): Promise<Session | undefined> {
  // A beacon cannot set headers: the token its body carries stands in for the missing header,
  // and is resolved exactly as the header would be.
  const header = request.headers.token
  const token = typeof header === "string" && header !== "" ? header : bodyToken !== "" ? bodyToken : undefined
  const session = token === undefined ? undefined : await options.authenticate(request, token, purpose)
  if (endpoint.access === "anyone") return session
  if (session === undefined) {
    throw forbidden(token !== undefined ? "Your session has ended. Please sign in again." : "Please sign in to continue.")
  }
  if (endpoint.access === "staff" && !session.isStaff) throw forbidden("Only staff may do this.")
  return session
}

/** The session token a beacon's body carries, read before the body is decoded; undefined when there is none. */
function beaconToken(request: FastifyRequest): string | undefined {
  let body = request.body
  if (body instanceof PlainTextBody) {
    try {
      body = body.json()
    } catch {
      return undefined // the body is malformed, which decoding reports once access is settled
    }
  }
  if (body === null || typeof body !== "object" || !("token" in body)) return undefined
  return typeof body.token === "string" ? body.token : undefined
}

function decoded<T>(result: { ok: true; value: T } | { ok: false; detail: string }): T {
  if (!result.ok) throw invalidInput(result.detail)
  return result.value
}

function requestBody(request: FastifyRequest, name: EndpointName): unknown {
  const body = request.body
  if (!(body instanceof PlainTextBody)) {
    if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
      throw invalidInput("Expected a JSON object as the request body")
    }
    return body
  }
  if (!BEACON_ENDPOINTS.has(name)) {
    throw new HttpFailure(415, "Send the request body as JSON (Content-Type: application/json)")
  }
  return body.json()
}
