import { performance } from "node:perf_hooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mailCount } from "../../support/accountsHarness.ts"
import { dialects } from "../../support/dbHarness.ts"
import { nextIp, startTestServer, type TestServer } from "../../support/testServer.ts"

// Its own file and server, so no other test's requests share the machine while it measures.

const SAME_ANSWER = { success: true, detail: "If the email is registered, reset instructions will be sent." }
const ROUNDS = 10

describe.each(dialects)("password reset timing ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  const timed = async (email: string): Promise<number> => {
    const started = performance.now()
    const response = await server.call("createPasswordReset", { body: { email }, ip: nextIp() })
    const elapsed = performance.now() - started
    expect({ status: response.statusCode, body: response.json() as unknown }).toEqual({ status: 200, body: SAME_ANSWER })
    return elapsed
  }
  /** The middle time: a request that a busy machine held up moves it no more than any other. */
  const median = (times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b)
    const middle = sorted.length >> 1
    return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
  }

  it("takes as long for an unknown address as for a registered one", async () => {
    // A different account each round: the per-address limit would otherwise cut the work short.
    const known = await Promise.all(Array.from({ length: ROUNDS }, (_, i) => server.addUser({ email: `timed${i}@example.com` })))
    for (let i = 0; i < 3; i += 1) await timed(`warmup${i}@example.com`)
    const knownTimes: number[] = []
    const unknownTimes: number[] = []
    // Interleaved, so a slow patch of the machine hits both sides alike.
    for (const user of known) {
      knownTimes.push(await timed(user.email))
      unknownTimes.push(await timed(`nobody-${user.email}`))
    }
    const [k, u] = [median(knownTimes), median(unknownTimes)]
    // Generous on purpose: shared CI machines jitter by milliseconds, and a busy one stalls a
    // request now and then (medians, not means). What it catches is a path that skips a write or
    // a hash, which shows as a consistent gap well beyond noise.
    expect(Math.abs(k - u), `known ${k.toFixed(2)} ms, unknown ${u.toFixed(2)} ms`).toBeLessThan(Math.max(30, 0.25 * Math.max(k, u)))
    for (const user of known) expect(await mailCount(server.db, user.email)).toBe(1)
    expect(await mailCount(server.db, `nobody-${known[0]?.email}`)).toBe(0)
  })
})
