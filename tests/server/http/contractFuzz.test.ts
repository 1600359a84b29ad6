import fc from "fast-check"
import type { LightMyRequestResponse } from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, type EndpointName } from "../../../src/domain/contract/api.ts"
import { ApiFailure } from "../../../src/domain/contract/endpoint.ts"
import { decodeWith } from "../../../src/domain/decode.ts"
import type { RateLimits } from "../../../src/server/http/rateLimits.ts"
import { dialects } from "../../support/dbHarness.ts"
import { type HostileRequest, hostileRequest } from "../../support/hostileRequest.ts"
import { NOT_COMPARED, type TableSnapshot, tableSnapshot } from "../../support/tableSnapshot.ts"
import { PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

// Every contract entry, as anyone, a customer and staff, on both databases, gets requests made
// from its own schemas and then turned hostile (see hostileRequest.ts). Whatever arrives: no 5xx,
// a JSON body that is the endpoint's answer or the contract's failure, and a refused request (4xx)
// changes no stored row. Every run uses one seed, named in the suite's title and in a failure:
// FUZZ_SEED=<seed> replays it, FUZZ_RUNS=<n> runs more requests per endpoint (40 take ~40 s).

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_115)
const RUNS = Number(process.env.FUZZ_RUNS ?? 40)

const ROLES = ["anonymous", "customer", "staff"] as const
type Role = (typeof ROLES)[number]
type SignedIn = Exclude<Role, "anonymous">
const EMAIL: Record<SignedIn, string> = { customer: "fuzz-customer@example.com", staff: "fuzz-staff@example.com" }
// Each signed-in caller has a few sessions, each used from the one address it signed in from (a
// session seen from a new address records it, which would be a write), so the per-address limits
// that cannot be raised (sign-up, password reset, mailed tokens, invite codes) still leave room.
// Anonymous callers come from a new address every time.
const SESSIONS = 4
const sessionAddress = (role: SignedIn, slot: number) => `10.250.${role === "customer" ? 1 : 2}.${slot}`
let anonymousCount = 0
const anonymousAddress = () => {
  anonymousCount += 1
  return `10.251.${(anonymousCount >> 8) & 255}.${anonymousCount & 255}`
}

const UNLIMITED = 1_000_000_000
const LIMITS = {
  apiPerMinute: UNLIMITED,
  signInPerMinute: UNLIMITED,
  failedSignInsPerAccount: UNLIMITED,
  failedSignInsPerAccountAnyNetwork: UNLIMITED,
  signUpsPerInvite: UNLIMITED,
  signUpAttemptsPerEmail: UNLIMITED
} satisfies Partial<RateLimits>

const NAMES = Object.keys(api) as EndpointName[]
const checkFailure = decodeWith(ApiFailure)
const checkAnswer = Object.fromEntries(NAMES.map((name) => [name, decodeWith(api[name].response)])) as Record<
  EndpointName,
  ReturnType<typeof decodeWith>
>

function expectContractAnswer(name: EndpointName, role: Role, request: HostileRequest, response: LightMyRequestResponse): void {
  const status = response.statusCode
  const context = `${request.describe()} as ${role} answered ${status} ${response.body.slice(0, 300)}`
  expect(status, context).toBeGreaterThanOrEqual(200)
  expect(status, context).toBeLessThan(500)
  expect(response.headers["content-type"], context).toMatch(/^application\/json/)
  let body: unknown
  expect(() => (body = JSON.parse(response.body)), context).not.toThrow()
  if (status < 300) {
    expect(status, context).toBe(200)
    expect(checkAnswer[name](body), context).toMatchObject({ ok: true })
    return
  }
  expect(checkFailure(body), context).toMatchObject({ ok: true })
  expect((body as ApiFailure).status, context).toBe(status)
}

describe.each(dialects)(`every endpoint under hostile input ($name, seed ${SEED})`, (dialect) => {
  let server: TestServer
  const tokens: Record<SignedIn, Array<string>> = { customer: [], staff: [] }
  // the tables as the last refused request left them; unknown again after any request that succeeded
  let known: TableSnapshot | undefined

  const signIn = async (role: SignedIn, slot: number) => {
    tokens[role][slot] = await server.signIn(EMAIL[role], PASSWORD, sessionAddress(role, slot))
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, { limits: LIMITS })
    await server.addUser({ email: EMAIL.customer })
    await server.addUser({ email: EMAIL.staff, staff: true })
    for (let slot = 0; slot < SESSIONS; slot++) {
      await signIn("customer", slot)
      await signIn("staff", slot)
    }
  })
  afterAll(() => server?.dispose())

  const send = (role: Role, slot: number, request: HostileRequest) => {
    const [token, address] =
      role === "anonymous" ? [request.bogusToken, anonymousAddress()] : [tokens[role][slot], sessionAddress(role, slot)]
    return server.app.inject({
      method: request.method as "GET",
      url: request.url,
      remoteAddress: address,
      headers: { ...request.headers, ...(token === undefined ? {} : { token }) },
      ...(request.payload === undefined ? {} : { payload: request.payload })
    })
  }

  /** A request that succeeded may have ended the caller's sessions (logout, logout everywhere): sign in again for the next. */
  const stillSignedIn = async (role: Role) => {
    if (role === "anonymous") return
    for (let slot = 0; slot < SESSIONS; slot++) {
      const check = await server.app.inject({
        method: "GET",
        url: api.isAuthenticated.path,
        remoteAddress: sessionAddress(role, slot),
        headers: { token: tokens[role][slot] ?? "" }
      })
      if ((check.json() as { success: boolean }).success !== true) await signIn(role, slot)
    }
  }

  const caller = fc.tuple(fc.constantFrom(...ROLES), fc.nat({ max: SESSIONS - 1 }))

  it.each(NAMES)(
    "%s",
    async (name) => {
      const property = fc.asyncProperty(caller, hostileRequest(api[name]), async ([role, slot], request) => {
        const before = known ?? (await tableSnapshot(server.db, NOT_COMPARED))
        const response = await send(role, slot, request)
        known = undefined
        expectContractAnswer(name, role, request, response)
        if (response.statusCode >= 400) {
          const after = await tableSnapshot(server.db, NOT_COMPARED)
          expect(after, `${request.describe()} as ${role} was refused (${response.statusCode}) yet changed stored rows`).toEqual(before)
          known = after
        } else {
          await stillSignedIn(role)
        }
      })
      await fc.assert(property, { numRuns: RUNS, seed: SEED })
    },
    120_000
  )
})
