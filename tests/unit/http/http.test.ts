import { describe, expect, it, vi } from "vitest"
import { CANCELLED_DETAIL, createCallApi, NETWORK_FAILURE_DETAIL, TIMEOUT_DETAIL } from "../../../src/adapters/http/http.ts"
import { createApiEndpoints } from "../../../src/app/apiEndpoints.ts"
import { refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import { api } from "../../../src/domain/contract/api.ts"

const json = (status: number, body: unknown, type = "application/json; charset=utf-8") =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } })

const setup = (respond: (url: string, init: RequestInit) => Response | Promise<Response>, token: string | null = "session-token") => {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => respond(String(input), init ?? {}))
  const onForbidden = vi.fn()
  const callApi = createCallApi({ fetch, endpoints: { first: api }, getToken: () => token, onForbidden })
  return { callApi, fetch, onForbidden }
}

const streamJson = {
  id: 1,
  title: "Sports One",
  src: "/a.m3u8",
  src_sldp: null,
  image_location: "/a.jpg",
  tags: "",
  tags_sldp: "",
  maintenance_mode: false
}

describe("callApi", () => {
  it("sends JSON with the Token header and cookies, by contract entry", async () => {
    const { callApi, fetch } = setup(() => json(200, { success: true, resultCode: 1, token: "t" }))
    await callApi("login", { body: { email: "a@b.co", password: "longenough", isMobile: false } })
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe("/api/users/login")
    expect(init?.method).toBe("POST")
    expect(init?.credentials).toBe("include")
    expect(init?.headers).toMatchObject({ Token: "session-token", "Content-Type": "application/json", Accept: "application/json" })
    expect(JSON.parse(String(init?.body))).toEqual({ email: "a@b.co", password: "longenough", isMobile: false })
  })

  it("fills path parameters and sends no body or Token when there are none", async () => {
    const { callApi, fetch } = setup(() => json(200, { success: true, data: { Items: [] } }), null)
    await callApi("schedule", { params: { id: "2025-01-31" } })
    const [url, init] = fetch.mock.calls[0] ?? []
    expect(url).toBe("/api/scheduler/2025-01-31")
    expect(init?.method).toBe("GET")
    expect(init?.body).toBeUndefined()
    expect(init?.headers).not.toHaveProperty("Token")
  })

  it("answers ok with the body decoded by the endpoint's schema", async () => {
    const { callApi } = setup(() => json(200, { success: true, data: [streamJson], extra: "ignored" }))
    const result = await callApi("streams")
    expect(result).toMatchObject({ _tag: "ok", body: { success: true, data: [{ title: "Sports One", src_sldp: null }] } })
    expect(result._tag === "ok" && "extra" in result.body).toBe(false)
  })

  it("answers ok with a result-coded refusal the server sent as its answer (SPEC §8)", async () => {
    const body = { success: false, resultCode: 12, detail: "Email and password do not match" }
    const { callApi } = setup(() => json(200, body))
    await expect(callApi("login", { body: { email: "a@b.co", password: "wrongpassword" } })).resolves.toEqual({ _tag: "ok", body })
  })

  it("answers any 403 with onForbidden and a result of its own, the session's end", async () => {
    const { callApi, onForbidden } = setup(() => json(403, { success: false, status: 403, detail: "Forbidden" }))
    await expect(callApi("streams")).resolves.toEqual(SESSION_ENDED)
    expect(onForbidden).toHaveBeenCalledTimes(1)
  })

  it("turns a response that is not JSON into the content-type fallback", async () => {
    const { callApi } = setup(() => new Response("<html>proxy error</html>", { status: 502, headers: { "content-type": "text/html" } }))
    await expect(callApi("streams")).resolves.toEqual(refused(404, "content type"))
  })

  it("answers a 400 failure body as refused, with its result code and detail", async () => {
    const body = { success: false, status: 400, resultCode: 19, detail: "email: Enter a valid email address." }
    const { callApi } = setup(() => json(400, body))
    await expect(callApi("login", { body: { email: "x", password: "y" } })).resolves.toEqual(
      refused(400, "email: Enter a valid email address.", 19)
    )
  })

  it("answers a 429 failure body as refused, with the server's reason", async () => {
    const body = { success: false, status: 429, detail: "Rate limit exceeded, retry in 1 minute" }
    const { callApi } = setup(() => json(429, body))
    await expect(callApi("streams")).resolves.toEqual(refused(429, "Rate limit exceeded, retry in 1 minute"))
  })

  it("keeps the status, result code and detail of an error whose body is not the failure body", async () => {
    const { callApi } = setup(() => json(401, { success: false, resultCode: 12, detail: "Email and password do not match" }))
    await expect(callApi("login", { body: { email: "a@b.co", password: "wrongpassword" } })).resolves.toEqual(
      refused(401, "Email and password do not match", 12)
    )
    const bare = setup(() => json(500, { oops: true }))
    await expect(bare.callApi("streams")).resolves.toEqual(refused(500, "The server answered HTTP 500."))
  })

  it("explains a body that matches neither schema", async () => {
    const { callApi } = setup(() => json(200, { unexpected: true }))
    const result = await callApi("streams")
    expect(result).toMatchObject({ _tag: "refused", status: 200 })
    expect(result._tag === "refused" ? result.detail : "").toMatch(
      /^Unexpected answer from the server \(HTTP 200\) for GET \/api\/streams\/all: /
    )
  })

  it("reports malformed JSON instead of throwing", async () => {
    const { callApi } = setup(() => new Response("{", { status: 200, headers: { "content-type": "application/json" } }))
    await expect(callApi("streams")).resolves.toEqual(refused(200, "The server sent malformed JSON (HTTP 200)."))
  })

  it("turns a network failure into a failure result, never a throw", async () => {
    const { callApi } = setup(() => {
      throw new TypeError("Failed to fetch")
    })
    await expect(callApi("streams")).resolves.toEqual(unreachable("network", NETWORK_FAILURE_DETAIL))
  })

  it("says a cancelled call was cancelled", async () => {
    const controller = new AbortController()
    const { callApi } = setup((_, init) => {
      controller.abort()
      throw init.signal?.reason
    })
    await expect(callApi("streams", { signal: controller.signal })).resolves.toEqual(unreachable("cancelled", CANCELLED_DETAIL))
  })

  /** A fetch that answers only when the signal it was given aborts, as a browser's does. */
  const hanging = (_: string, init: RequestInit): Promise<Response> =>
    new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))))

  it("gives up on a call the server never answers, as a failure the page can retry", async () => {
    vi.useFakeTimers()
    try {
      const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => hanging(String(input), init ?? {}))
      const callApi = createCallApi({ fetch, endpoints: { first: api }, getToken: () => null, onForbidden: vi.fn(), timeoutMs: 1000 })
      const answer = callApi("streams")
      await vi.advanceTimersByTimeAsync(999)
      let settled = false
      void answer.then(() => (settled = true))
      await vi.advanceTimersByTimeAsync(0)
      expect(settled).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      await expect(answer).resolves.toEqual(unreachable("timeout", TIMEOUT_DETAIL))
    } finally {
      vi.useRealTimers()
    }
  })

  it("still says cancelled when the caller cancels before the deadline", async () => {
    const controller = new AbortController()
    const { callApi } = setup(hanging)
    const answer = callApi("streams", { signal: controller.signal })
    controller.abort()
    await expect(answer).resolves.toEqual(unreachable("cancelled", CANCELLED_DETAIL))
  })

  it("answers unreachable, never a rejection, when the call cannot even be sent", async () => {
    const failing = createCallApi({
      fetch: vi.fn(),
      endpoints: { first: api },
      getToken: () => {
        throw new DOMException("The operation is insecure.", "SecurityError")
      },
      onForbidden: vi.fn()
    })
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
    await expect(failing("streams")).resolves.toEqual(unreachable("network", NETWORK_FAILURE_DETAIL))
    expect(error).toHaveBeenCalledOnce()
    error.mockRestore()
  })

  describe("with the app's endpoints: the shell's at once, the rest from the whole contract when first called", () => {
    const withLoader = (load: () => Promise<typeof api>) => {
      const fetch = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => json(200, { success: true, data: [streamJson] }))
      const callApi = createCallApi({ fetch, endpoints: createApiEndpoints(load), getToken: () => null, onForbidden: vi.fn() })
      return { callApi, fetch }
    }

    it("sends a shell call in the caller's turn, without loading the contract", () => {
      const load = vi.fn(async () => api)
      const { callApi, fetch } = withLoader(load)
      void callApi("siteSettings")
      void callApi("login", { body: { email: "a@b.co", password: "longenough" } })
      expect(fetch).toHaveBeenCalledTimes(2)
      expect(load).not.toHaveBeenCalled()
    })

    it("loads the contract once for any other call, and decodes by it", async () => {
      const load = vi.fn(async () => api)
      const { callApi, fetch } = withLoader(load)
      const [first, second] = await Promise.all([callApi("streams"), callApi("streams")])
      expect(first).toMatchObject({ _tag: "ok", body: { data: [{ title: "Sports One" }] } })
      expect(second).toEqual(first)
      expect(fetch.mock.calls[0]?.[0]).toBe("/api/streams/all")
      expect(load).toHaveBeenCalledOnce()
    })

    it("answers a failed contract load as a network failure, and loads it again on the next call", async () => {
      const load = vi.fn<() => Promise<typeof api>>().mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      load.mockResolvedValue(api)
      const { callApi, fetch } = withLoader(load)
      const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
      await expect(callApi("streams")).resolves.toEqual(unreachable("network", NETWORK_FAILURE_DETAIL))
      expect(fetch).not.toHaveBeenCalled()
      await expect(callApi("streams")).resolves.toMatchObject({ _tag: "ok" })
      expect(load).toHaveBeenCalledTimes(2)
      error.mockRestore()
    })
  })
})
