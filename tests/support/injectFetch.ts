import type { FastifyInstance } from "fastify"

/** A request the app made, as tests assert on it. */
export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly token: string | null
  readonly body: unknown
}

// Fastify and light-my-request move each request along with the global setImmediate: with it
// faked, no answer would ever come and the test would only time out.
const realSetImmediate = globalThis.setImmediate

/** Throws (and says so on the console, which the app's own fetch error would hide) when setImmediate is faked. */
export const assertServerCanAnswer = (): void => {
  if (globalThis.setImmediate === realSetImmediate) return
  const message =
    "The in-process server needs the real setImmediate: fake only the timers the test needs, " +
    'e.g. vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] })'
  console.error(message)
  throw new Error(message)
}

// Responses that may not carry a body; `new Response` throws if given one.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new DOMException("This operation was aborted", "AbortError")

/** Rejects as fetch does when `signal` aborts first; the request itself runs on and is ignored. */
const unlessAborted = <T>(work: Promise<T>, signal: AbortSignal): Promise<T> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal))
    const onAbort = () => reject(abortError(signal))
    signal.addEventListener("abort", onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort))
  })

/**
 * `fetch` answered by the server's own routes through `app.inject`, no socket involved: the
 * Request is built as a browser would (relative URLs against the page's origin), and the answer
 * comes back as a real Response with its status, headers and body. Other origins are unreachable.
 */
export const injectFetch =
  (app: FastifyInstance, origin: string, remoteAddress = "127.0.0.1"): typeof globalThis.fetch =>
  async (input, init) => {
    assertServerCanAnswer()
    const request = input instanceof Request ? new Request(input, init) : new Request(new URL(String(input), origin), init)
    const url = new URL(request.url)
    if (url.origin !== origin) throw new TypeError(`Failed to fetch ${url.href}: only ${origin} is served in tests`)
    // the app sends JSON text; reading it back through the Request's stream would only add turns of the event loop
    const payload =
      typeof init?.body === "string" ? init.body : request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    const answer = await unlessAborted(
      app.inject({
        method: request.method as "GET",
        url: `${url.pathname}${url.search}`,
        headers: Object.fromEntries(request.headers),
        remoteAddress,
        ...(payload === undefined ? {} : { payload })
      }),
      request.signal
    )
    const headers = new Headers()
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of [value ?? []].flat()) headers.append(name, String(one))
    }
    const empty = NULL_BODY_STATUSES.has(answer.statusCode) || request.method === "HEAD"
    // Node's own Uint8Array (the global one is jsdom's); a Buffer only types its memory more loosely
    const body = empty ? null : (answer.rawPayload as Uint8Array<ArrayBuffer>)
    return new Response(body, { status: answer.statusCode, statusText: answer.statusMessage, headers })
  }

/** Wraps `fetch` to keep a list of what went through it, and to tell whether any answer is still due. */
export const recordCalls = (fetch: typeof globalThis.fetch) => {
  const calls: Array<RecordedCall> = []
  let inFlight = 0
  const recording: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost")
    const body = typeof init?.body === "string" ? parseJson(init.body) : undefined
    calls.push({ method: init?.method ?? "GET", path: url.pathname, token: new Headers(init?.headers).get("token"), body })
    inFlight += 1
    try {
      return await fetch(input, init)
    } finally {
      inFlight -= 1
    }
  }
  return { fetch: recording, calls, inFlight: () => inFlight }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
