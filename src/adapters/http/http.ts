import {
  ApiFailure,
  api,
  type BodyOf,
  buildPath,
  type CallResult,
  type EndpointName,
  type ParamsOf,
  type QueryOf,
  SESSION_ENDED
} from "../../domain/api.ts"
import { type Decoded, decodeWith } from "../../domain/decode.ts"
import { apiRequestInit } from "./apiRequest.ts"

export interface CallOptions<N extends EndpointName> {
  readonly params?: ParamsOf<N>
  readonly query?: QueryOf<N>
  readonly body?: BodyOf<N>
  readonly signal?: AbortSignal
}

/** Calls one endpoint of the contract; never rejects. */
export type CallApi = <N extends EndpointName>(name: N, options?: CallOptions<N>) => Promise<CallResult<N>>

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
export const CONTENT_TYPE_FAILURE: ApiFailure = { success: false, status: 404, detail: "content type" }
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

const failure = (status: number, detail: string): ApiFailure => ({ success: false, status, detail })

/**
 * Successful statuses are read with the endpoint's schema first; error statuses with the shared
 * failure body first, because a failure body often also satisfies a loose endpoint schema.
 */
const interpret = (name: EndpointName, status: number, body: unknown): unknown => {
  const asResponse = decodeResponse(name)
  const ok = status >= 200 && status < 300
  const first = ok ? asResponse(body) : decodeFailure(body)
  if (first.ok) return first.value
  const second = ok ? decodeFailure(body) : asResponse(body)
  if (second.ok) return second.value
  const endpoint = api[name]
  const detail = ok ? first.detail : second.detail
  return failure(status, `Unexpected answer from the server (HTTP ${status}) for ${endpoint.method} ${endpoint.path}: ${detail}`)
}

const isJson = (response: Response): boolean => /json/i.test(response.headers.get("content-type") ?? "")

export const createCallApi = (deps: HttpDeps): CallApi => {
  const call = async (name: EndpointName, options: CallOptions<EndpointName> = {}): Promise<unknown> => {
    const endpoint = api[name]
    const path = buildPath(
      endpoint.path,
      options.params as Record<string, string> | undefined,
      options.query as Record<string, string | undefined> | undefined
    )
    const init = apiRequestInit(endpoint.method, deps.getToken(), options.body)
    const deadline = withDeadline(options.signal, deps.timeoutMs ?? CALL_TIMEOUT_MS)
    init.signal = deadline.signal
    const abandoned = (): ApiFailure | undefined =>
      options.signal?.aborted === true ? failure(0, CANCELLED_DETAIL) : deadline.timedOut() ? failure(0, TIMEOUT_DETAIL) : undefined

    try {
      let response: Response
      try {
        response = await deps.fetch(`${deps.baseUrl ?? ""}${path}`, init)
      } catch {
        return abandoned() ?? failure(0, NETWORK_FAILURE_DETAIL)
      }
      if (response.status === 403) {
        deps.onForbidden()
        return SESSION_ENDED
      }
      if (!isJson(response)) return CONTENT_TYPE_FAILURE
      let body: unknown
      try {
        body = await response.json()
      } catch {
        return abandoned() ?? failure(response.status, `The server sent malformed JSON (HTTP ${response.status}).`)
      }
      return interpret(name, response.status, body)
    } finally {
      deadline.done()
    }
  }
  return call as CallApi
}
