import { createSecretKey, randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { readGrant } from "../../../src/server/connections/streamGrants.ts"
import { createStreamSigner } from "../../../src/server/connections/streamSigner.ts"
import type { Session } from "../../../src/server/http/session.ts"

const key = createSecretKey(randomBytes(32))
const session = (sessionId: number): Session => ({
  sessionId,
  tokenHash: "h",
  userId: 7,
  email: "a@example.com",
  username: "a",
  isStaff: false
})
const grantOf = (address: string | null) =>
  readGrant(key, address === null ? null : new URL(address, "http://x.invalid").searchParams.get("grant"))

// a shared list, as the grid's cache hands it out: frozen, signed for request after request
const list = Object.freeze([
  Object.freeze({ id: 1, src: "/live/one/index.m3u8", src_sldp: null }),
  Object.freeze({ id: 2, src: "https://cdn.example.com/two/index.m3u8", src_sldp: null }),
  Object.freeze({ id: 3, src: "http://tv.example.com/live/three/index.m3u8#t", src_sldp: "/live/three-ll/index.m3u8?x=1" }),
  Object.freeze({ id: 4, src: "http://127.0.0.1:9/live/four/index.m3u8", src_sldp: null })
])

describe("the stream signer", () => {
  let clock = 1_000
  const sign = createStreamSigner(
    async () => key,
    "http://tv.example.com",
    () => clock
  )

  it("grants our origin's addresses to the session asking, and passes others' as they are", async () => {
    const signed = await sign(session(11), list)
    expect(grantOf(signed[0]?.src ?? null)).toEqual({ userId: 7, sessionId: 11, streamId: "1", app: "tv", channel: "one", issuedAt: 1_000 })
    // without a low-latency source of its own, the low-latency player gets `src` under a grant of its own
    expect(grantOf(signed[0]?.src_sldp ?? null)).toMatchObject({ streamId: "1", app: "lls", channel: "one" })
    expect(signed[1]).toEqual(list[1])
    expect(signed[2]?.src).toMatch(/^http:\/\/tv\.example\.com\/live\/three\/index\.m3u8\?grant=g1\.[^#]+#t$/)
    expect(grantOf(signed[2]?.src_sldp ?? null)).toMatchObject({ streamId: "3", app: "lls", channel: "three-ll" })
    expect(signed[2]?.src_sldp).toMatch(/^\/live\/three-ll\/index\.m3u8\?x=1&grant=g1\./)
    // another origin, not the host asked by
    expect(signed[3]).toEqual(list[3])
  })

  it("signs the same list afresh for every session, moment and host", async () => {
    const first = await sign(session(11), list)
    clock = 2_000
    const second = await sign(session(12), list)
    expect(grantOf(second[0]?.src ?? null)).toMatchObject({ sessionId: 12, issuedAt: 2_000 })
    expect(second[0]?.src).not.toBe(first[0]?.src)
    // the browser reached us by this name: its addresses are ours too, then no longer for another host
    const byHost = await sign(session(12), list, "127.0.0.1:9")
    expect(grantOf(byHost[3]?.src ?? null)).toMatchObject({ streamId: "4", channel: "four" })
    expect((await sign(session(12), list, "other.example.com"))[3]).toEqual(list[3])
    expect((await sign(session(12), list))[3]).toEqual(list[3])
    // the shared list itself is never changed
    expect(list[0]?.src).toBe("/live/one/index.m3u8")
  })

  it("signs a list that is not frozen, and one changed between two calls, as it is at each", async () => {
    const rows = [{ id: 5, src: "/live/five/index.m3u8", src_sldp: null as string | null }]
    expect(grantOf((await sign(session(11), rows))[0]?.src ?? null)).toMatchObject({ channel: "five" })
    rows[0] = { id: 5, src: "/live/six/index.m3u8", src_sldp: null }
    expect(grantOf((await sign(session(11), rows))[0]?.src ?? null)).toMatchObject({ channel: "six" })
  })
})
