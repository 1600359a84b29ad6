import type { ApiEndpoints } from "../adapters/http/http.ts"
import { registrationContract, signInContract } from "../domain/contract/account.ts"
import type { Api } from "../domain/contract/api.ts"
import { shellContract } from "../domain/contract/shell.ts"

/**
 * What the app calls the server by: the shell's and sign-in's endpoints in the first script, so
 * the public pages load no other feature's schemas, and the whole contract in a chunk of its own,
 * which each feature's page loads along with its chunk. A failed load is tried again next time.
 */
export const createApiEndpoints = (load: () => Promise<Api> = loadApi): ApiEndpoints & { readonly whole: () => Promise<Api> } => {
  let loading: Promise<Api> | undefined
  const whole = (): Promise<Api> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
  return { first: { ...shellContract, ...signInContract, ...registrationContract }, whole }
}

const loadApi = async (): Promise<Api> => (await import("../domain/contract/api.ts")).api
