import { createSecretKey } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { grantOf } from "../../../src/domain/streamGrant.ts"
import { currentConnections, type Presence, SWITCH_GRACE_MS, streamsElsewhere } from "../../../src/server/connections/liveness.ts"
import { deviceLabel, networkLabel } from "../../../src/server/connections/network.ts"
import { ownChannelOf, readGrant, type StreamGrant, signGrant, withGrant } from "../../../src/server/connections/streamGrants.ts"
import { networkOf } from "../../../src/server/http/clientNetwork.ts"

const key = createSecretKey(Buffer.alloc(32, 7))
const grant: StreamGrant = { userId: 12, sessionId: 345, streamId: "6", app: "tv", channel: "demo1", issuedAt: 1_760_000_000_000 }

describe("stream grants", () => {
  it("read back exactly what was signed", () => {
    expect(readGrant(key, signGrant(key, grant))).toEqual(grant)
    expect(readGrant(key, signGrant(key, { ...grant, app: "lls", channel: "a_b-C" }))).toEqual({ ...grant, app: "lls", channel: "a_b-C" })
  })

  it("refuse another key's signature, any changed field, and anything malformed", () => {
    const signed = signGrant(key, grant)
    expect(readGrant(createSecretKey(Buffer.alloc(32, 8)), signed)).toBeUndefined()
    const fields = signed.split(".")
    for (let index = 1; index < 7; index++) {
      const changed = [...fields]
      changed[index] = index === 4 ? "lls" : index === 5 ? "demo2" : "9"
      expect(readGrant(key, changed.join("."))).toBeUndefined()
    }
    for (const text of [undefined, 42, "", "g1", `${signed}.x`, signed.slice(0, -1), `g2${signed.slice(2)}`, "x".repeat(300)]) {
      expect(readGrant(key, text)).toBeUndefined()
    }
  })

  it("ride in the playlist address, after any query it has, and come back out of it", () => {
    expect(withGrant("/live/demo1/index.m3u8", "G")).toBe("/live/demo1/index.m3u8?grant=G")
    expect(withGrant("/live/demo1/index.m3u8?x=1#t", "G")).toBe("/live/demo1/index.m3u8?x=1&grant=G#t")
    expect(grantOf("/live/demo1/index.m3u8?x=1&grant=G#t")).toBe("G")
    expect(grantOf("/live/demo1/index.m3u8")).toBeNull()
  })

  it("are only for our own origin's playlists", () => {
    const ours = "https://tv.example.org"
    expect(ownChannelOf("/live/demo1/index.m3u8", ours)).toBe("demo1")
    expect(ownChannelOf("/live/demo1/ll.m3u8", ours)).toBe("demo1")
    expect(ownChannelOf("https://tv.example.org/live/demo2/index.m3u8", ours)).toBe("demo2")
    expect(ownChannelOf("https://cdn.example.net/live/demo2/index.m3u8", ours)).toBeUndefined()
    expect(ownChannelOf("/vod/film.m3u8", ours)).toBeUndefined()
    expect(ownChannelOf("/live/../x/index.m3u8", ours)).toBeUndefined()
    // the name a browser reached us by is ours too
    expect(ownChannelOf("http://127.0.0.1:8080/live/demo3/index.m3u8", ours, "127.0.0.1:8080")).toBe("demo3")
    expect(ownChannelOf("http://127.0.0.1:8081/live/demo3/index.m3u8", ours, "127.0.0.1:8080")).toBeUndefined()
  })
})

describe("households", () => {
  it("are an IPv4 address or an IPv6 /64", () => {
    expect(networkOf("203.0.113.7")).toBe("203.0.113.7")
    expect(networkOf("::ffff:203.0.113.7")).toBe("203.0.113.7")
    expect(networkOf("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64")
    expect(networkOf("2001:db8:1:2::9")).toBe(networkOf("2001:0db8:0001:0002:ffff::1"))
    expect(networkOf("2001:db8:1:3::9")).not.toBe(networkOf("2001:db8:1:2::9"))
    expect(networkOf("not an address")).toBe("not an address")
  })

  it("are shown to their owner without a whole address", () => {
    expect(networkLabel("203.0.113.7")).toBe("203.0.113.*")
    expect(networkLabel("2001:db8:1:2::/64")).toBe("2001:db8:1:2::/64")
    expect(networkLabel("junk")).toBe("another network")
  })

  it("name devices by browser and system", () => {
    const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
    expect(deviceLabel(chrome, false)).toBe("Chrome on Windows")
    expect(deviceLabel(null, true)).toBe("a phone or tablet")
    expect(deviceLabel("", false)).toBe("a device")
  })
})

describe("who is watching now", () => {
  const now = 1_000_000
  const at = (id: number, fields: Partial<Presence>): Presence => ({
    id,
    userId: 1,
    sessionId: 1,
    streamId: "1",
    network: "n1",
    firstSeen: now - 60_000,
    lastSeen: now,
    ...fields
  })

  it("is what was seen within 90 seconds", () => {
    const rows = [at(1, { lastSeen: now - 90_000 }), at(2, { userId: 2, lastSeen: now - 90_001 })]
    expect(currentConnections(rows, now).map((row) => row.id)).toEqual([1])
  })

  it("leaves out what a household switched from, and shows a second screen again once the grace has passed", () => {
    const switched = [at(1, { streamId: "1", lastSeen: now - 20_000 }), at(2, { streamId: "2", firstSeen: now - 20_000 })]
    expect(currentConnections(switched, now).map((row) => row.id)).toEqual([2])
    const secondScreen = [at(1, { sessionId: 2, lastSeen: now }), at(2, { streamId: "2", firstSeen: now - SWITCH_GRACE_MS - 1 })]
    expect(currentConnections(secondScreen, now).map((row) => row.id)).toEqual([1, 2])
    const elsewhere = [at(1, { network: "n2", lastSeen: now - 20_000 }), at(2, { streamId: "2", firstSeen: now - 20_000 })]
    expect(currentConnections(elsewhere, now).map((row) => row.id)).toEqual([1, 2])
  })

  it("gives way exactly when some newer start of the household began within the grace of the last sighting", () => {
    // the rule as written, pair by pair, against the linear pass
    const pairwise = (rows: ReadonlyArray<Presence>) => {
      const live = rows.filter((row) => row.lastSeen >= now - 90_000)
      return live.filter(
        (row) =>
          !live.some(
            (newer) =>
              newer.id !== row.id &&
              newer.userId === row.userId &&
              newer.network === row.network &&
              newer.firstSeen > row.firstSeen &&
              row.lastSeen <= newer.firstSeen + SWITCH_GRACE_MS
          )
      )
    }
    const presence = fc.record({
      userId: fc.integer({ min: 1, max: 3 }),
      network: fc.constantFrom("n1", "n2"),
      firstSeen: fc.integer({ min: now - 200_000, max: now }),
      age: fc.integer({ min: 0, max: 120_000 })
    })
    fc.assert(
      fc.property(fc.array(presence, { maxLength: 12 }), (drawn) => {
        const rows = drawn.map((row, index) =>
          at(index + 1, {
            userId: row.userId,
            network: row.network,
            firstSeen: row.firstSeen,
            lastSeen: Math.max(row.firstSeen, now - row.age)
          })
        )
        expect(currentConnections(rows, now).map((row) => row.id)).toEqual(pairwise(rows).map((row) => row.id))
      }),
      { numRuns: 500 }
    )
  })

  it("counts streams elsewhere by channel and network, leaving out the starting session's own", () => {
    const rows = [
      at(1, { sessionId: 2, streamId: "1", network: "home" }),
      at(2, { sessionId: 3, streamId: "1", network: "home" }),
      at(3, { sessionId: 4, streamId: "2", network: "away" }),
      at(4, { sessionId: 9, streamId: "3", network: "home" })
    ]
    expect(streamsElsewhere(rows, { sessionId: 5, streamId: "1", network: "home" })).toBe(2)
    expect(streamsElsewhere(rows, { sessionId: 9, streamId: "5", network: "home" })).toBe(2)
    expect(streamsElsewhere(rows, { sessionId: 5, streamId: "5", network: "cafe" })).toBe(3)
  })
})
