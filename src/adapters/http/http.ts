import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../domain/contract/answer.ts"
import type { Api, BodyOf, EndpointName, ParamsOf, QueryOf } from "../../domain/contract/api.ts"
import { type AnySchema, ApiFailure, buildPath, type Endpoint } from "../../domain/contract/endpoint.ts"
import { type Decoded, decodeWith } from "../../domain/decode.ts"
import { apiRequestInit } from "./apiRequest.ts"

export interface CallOptions<N extends EndpointName> {
  readonly params?: ParamsOf<N>
  readonly query?: QueryOf<N>
  readonly body?: BodyOf<N>
  readonly signal?: AbortSignal
}

/** Calls one endpoint of the contract and answers its tagged answer; never rejects. */
export type CallApi = <N extends EndpointName>(name: N, options?: CallOptions<N>) => Promise<Answer<N>>

/** Every 403 any call meets, for whoever watches the session. */
export interface ForbiddenSignal {
  readonly emit: () => void
  /** Answers the way to stop listening. */
  readonly subscribe: (listener: () => void) => () => void
}

export const createForbiddenSignal = (): ForbiddenSignal => {
  const listeners = new Set<() => void>()
  return {
    emit: () => {
      for (const listener of listeners) listener()
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}

/**
 * The endpoints callApi knows: those a public page calls at once (`first`), and the whole contract,
 * whose schemas weigh more than a sign-in page should wait for, loaded on the first call of any
 * other endpoint. The loader is the app's: it loads once and may be asked again after a failure.
 */
export interface ApiEndpoints {
  readonly first: Partial<Api>
  readonly whole?: () => Promise<Api>
}

export interface HttpDeps {
  readonly fetch: typeof globalThis.fetch
  readonly endpoints: ApiEndpoints
  readonly getToken: () => string | null
  /** Any 403 means the session is gone: the app clears it and shows the login page. */
  readonly onForbidden: () => void
  readonly baseUrl?: string
  /** How long a call may go unanswered before it counts as failed; 30 s unless a test says otherwise. */
  readonly timeoutMs?: number
}

/** SPEC §8: anything that is not JSON yields this fixed result. */
export const CONTENT_TYPE_STATUS = 404
export const CONTENT_TYPE_DETAIL = "content type"
export const NETWORK_FAILURE_DETAIL = "Could not reach the server. Check your connection and try again."
export const CANCELLED_DETAIL = "The request was cancelled."
export const TIMEOUT_DETAIL = "The server took too long to answer. Check your connection and try again."
/** A call nobody answers must not leave a page waiting forever. */
export const CALL_TIMEOUT_MS = 30_000

/** The caller's signal, aborted also once `ms` have passed; `done` clears the timer. */
const withDeadline = (signal: AbortSignal | undefined, ms: number) => {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, ms)
  const cancel = () => controller.abort()
  if (signal?.aborted === true) cancel()
  else signal?.addEventListener("abort", cancel, { once: true })
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer)
      signal?.removeEventListener("abort", cancel)
    }
  }
}

const decodeFailure = decodeWith(ApiFailure)
type AnyEndpoint = Endpoint<AnySchema | undefined, AnySchema | undefined, AnySchema, AnySchema | undefined>
const responseDecoders = new Map<EndpointName, (input: unknown) => Decoded<unknown>>()
const decodeResponse = (name: EndpointName, endpoint: AnyEndpoint): ((input: unknown) => Decoded<unknown>) => {
  let decoder = responseDecoders.get(name)
  if (decoder === undefined) {
    decoder = decodeWith(endpoint.response)
    responseDecoders.set(name, decoder)
  }
  return decoder
}

/** A successful status carries the endpoint's answer; any other the shared failure body. Each is decoded once. */
const interpret = (name: EndpointName, endpoint: AnyEndpoint, status: number, body: unknown): Answer<EndpointName> => {
  if (status >= 200 && status < 300) {
    const decoded = decodeResponse(name, endpoint)(body)
    if (decoded.ok) return answered(decoded.value) as Answer<EndpointName>
    return refused(status, `Unexpected answer from the server (HTTP ${status}) for ${endpoint.method} ${endpoint.path}: ${decoded.detail}`)
  }
  const failure = decodeFailure(body)
  if (failure.ok) return refused(status, failure.value.detail, failure.value.resultCode)
  // not the shared failure body: whatever of it reads as one still says why
  const said = typeof body === "object" && body !== null ? (body as { detail?: unknown; resultCode?: unknown }) : {}
  const detail = typeof said.detail === "string" && said.detail !== "" ? said.detail : `The server answered HTTP ${status}.`
  return refused(status, detail, typeof said.resultCode === "number" ? said.resultCode : undefined)
}

const isJson = (response: Response): boolean => /json/i.test(response.headers.get("content-type") ?? "")

export const createCallApi = (deps: HttpDeps): CallApi => {
  const { first, whole } = deps.endpoints
  /** The endpoint by name: at once when the first page's, else from the whole contract (a failed load is the caller's). */
  const endpointOf = (name: EndpointName): AnyEndpoint | Promise<AnyEndpoint> => {
    const known: AnyEndpoint | undefined = first[name]
    if (known !== undefined) return known
    if (whole === undefined) throw new Error(`${name} is not an endpoint this app knows`)
    return whole().then((api): AnyEndpoint => api[name])
  }
  const call = async (name: EndpointName, options: CallOptions<EndpointName> = {}): Promise<Answer<EndpointName>> => {
    const deadline = withDeadline(options.signal, deps.timeoutMs ?? CALL_TIMEOUT_MS)
    const abandoned = () =>
      options.signal?.aborted === true
        ? unreachable("cancelled", CANCELLED_DETAIL)
        : deadline.timedOut()
          ? unreachable("timeout", TIMEOUT_DETAIL)
          : undefined
    try {
      const found = endpointOf(name)
      // the first page's endpoints are called at once, in the caller's turn, as they always were
      const endpoint = found instanceof Promise ? await found : found
      const path = buildPath(
        endpoint.path,
        options.params as Record<string, string> | undefined,
        options.query as Record<string, string | undefined> | undefined
      )
      const init = apiRequestInit(endpoint.method, deps.getToken(), options.body)
      init.signal = deadline.signal
      let response: Response
      try {
        response = await deps.fetch(`${deps.baseUrl ?? ""}${path}`, init)
      } catch {
        return abandoned() ?? unreachable("network", NETWORK_FAILURE_DETAIL)
      }
      if (response.status === 403) {
        deps.onForbidden()
        return SESSION_ENDED
      }
      if (!isJson(response)) return refused(CONTENT_TYPE_STATUS, CONTENT_TYPE_DETAIL)
      let body: unknown
      try {
        body = await response.json()
      } catch {
        return abandoned() ?? refused(response.status, `The server sent malformed JSON (HTTP ${response.status}).`)
      }
      return interpret(name, endpoint, response.status, body)
    } catch (error) {
      // a call that cannot even be sent (storage refusing the token, a body that is not JSON) is
      // as good as unanswered for the page; the console keeps the cause
      console.error(`Could not call ${name}`, error)
      return unreachable("network", NETWORK_FAILURE_DETAIL)
    } finally {
      deadline.done()
    }
  }
  return call as CallApi
}
