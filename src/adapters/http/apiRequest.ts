import { TOKEN_STORAGE_KEY } from "../../domain/StorageKeys.ts"

/** How every API call is sent (SPEC §7): JSON, the session in the `Token` header, cookies included. */
export const apiRequestInit = (method: string, token: string | null, body?: unknown): RequestInit => {
  const headers: Record<string, string> = { Accept: "application/json" }
  if (token !== null) headers[TOKEN_STORAGE_KEY] = token
  const init: RequestInit = { method, headers, credentials: "include" }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json"
    init.body = JSON.stringify(body)
  }
  return init
}
