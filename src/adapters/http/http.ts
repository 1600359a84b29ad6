import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../domain/contract/answer.ts"
import { api, type BodyOf, type EndpointName, type ParamsOf, type QueryOf } from "../../domain/contract/api.ts"
import { ApiFailure, buildPath } from "../../domain/contract/endpoint.ts"
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

export interface HttpDeps {
  readonly fetch: typeof globalThis.fetch
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
const responseDecoders = new Map<EndpointName, (input: unknown) => Decoded<unknown>>()
const decodeResponse = (name: EndpointName): ((input: unknown) => Decoded<unknown>) => {
  let decoder = responseDecoders.get(name)
  if (decoder === undefined) {
    decoder = decodeWith(api[name].response)
    responseDecoders.set(name, decoder)
  }
  return decoder
}

/** A successful status carries the endpoint's answer; any other the shared failure body. Each is decoded once. */
const interpret = (name: EndpointName, status: number, body: unknown): Answer<EndpointName> => {
  if (status >= 200 && status < 300) {
    const decoded = decodeResponse(name)(body)
    if (decoded.ok) return answered(decoded.value) as Answer<EndpointName>
    const endpoint = api[name]
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
  const call = async (name: EndpointName, options: CallOptions<EndpointName> = {}): Promise<Answer<EndpointName>> => {
    const deadline = withDeadline(options.signal, deps.timeoutMs ?? CALL_TIMEOUT_MS)
    const abandoned = () =>
      options.signal?.aborted === true
        ? unreachable("cancelled", CANCELLED_DETAIL)
        : deadline.timedOut()
          ? unreachable("timeout", TIMEOUT_DETAIL)
          : undefined
    try {
      const endpoint = api[name]
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
      return interpret(name, response.status, body)
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
