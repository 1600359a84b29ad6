import { vi } from "vitest"
import { type CallApi, createCallApi } from "../../src/adapters/http/http.ts"
import { createSyncedClock, type SyncedClock } from "../../src/adapters/telemetry/syncedClock.ts"
import { api } from "../../src/domain/contract/api.ts"

export interface PendingRequest {
  readonly url: string
  readonly init: RequestInit
  readonly body: unknown
  respond(status: number, body: unknown): void
  readonly aborted: () => boolean
}

/** A server whose every answer the test gives by hand; aborting a request rejects it like fetch does. */
export class FakeServer {
  readonly requests: Array<PendingRequest> = []
  readonly onForbidden = vi.fn()
  readonly callApi: CallApi

  constructor() {
    this.callApi = createCallApi({
      fetch: this.fetch,
      endpoints: { first: api },
      getToken: () => "session-token",
      onForbidden: this.onForbidden
    })
  }

  readonly fetch = (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const signal = init.signal
      const request: PendingRequest = {
        url: String(input),
        init,
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
        respond: (status, body) => resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })),
        aborted: () => signal?.aborted === true
      }
      signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")))
      this.requests.push(request)
    })

  /** Requests not answered or aborted yet. */
  get open(): Array<PendingRequest> {
    return this.requests.filter((request) => !request.aborted() && !this.#answered.has(request))
  }

  readonly #answered = new Set<PendingRequest>()
  answer(request: PendingRequest | undefined, status = 200, body: unknown = { success: true }): void {
    if (request === undefined) throw new Error("no such request")
    this.#answered.add(request)
    request.respond(status, body)
  }
}

/** A clock on vitest's fake time with a settable server offset. */
export const fakeClock = (): SyncedClock => createSyncedClock(() => Date.now())
