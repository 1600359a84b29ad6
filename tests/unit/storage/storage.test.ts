import { describe, expect, it } from "vitest"
import { createStorage, type KeyValueStore, memoryStore } from "../../../src/adapters/storage/storage.ts"

/** A store that starts failing on demand, like Safari's private mode or a full quota. */
const flakyStore = () => {
  const inner = memoryStore()
  let failing = false
  const store: KeyValueStore = {
    getItem: (key) => {
      if (failing) throw new Error("SecurityError")
      return inner.getItem(key)
    },
    setItem: (key, value) => {
      if (failing) throw new Error("QuotaExceededError")
      inner.setItem(key, value)
    },
    removeItem: (key) => {
      if (failing) throw new Error("SecurityError")
      inner.removeItem(key)
    }
  }
  return { store, inner, fail: () => (failing = true) }
}

describe("createStorage", () => {
  it("keeps the session token under the key Token", () => {
    const backing = memoryStore()
    const storage = createStorage(backing)
    expect(storage.getToken()).toBeNull()
    storage.setToken("abc")
    expect(backing.getItem("Token")).toBe("abc")
    expect(storage.getToken()).toBe("abc")
    storage.removeToken()
    expect(storage.getToken()).toBeNull()
  })

  it("remembers the last announcement token", () => {
    const storage = createStorage(memoryStore())
    expect(storage.getAnnouncementToken()).toBeNull()
    storage.setAnnouncementToken("a-1")
    expect(storage.getAnnouncementToken()).toBe("a-1")
  })

  it("keeps the player choice, 2 by default and for anything unreadable", () => {
    const backing = memoryStore()
    const storage = createStorage(backing)
    expect(storage.getPlayerChoice()).toBe(2)
    storage.setPlayerChoice(1)
    expect(storage.getPlayerChoice()).toBe(1)
    backing.setItem("streamPlayer", "7")
    expect(storage.getPlayerChoice()).toBe(2)
  })

  it("falls back to memory when the store throws, without losing newer values", () => {
    const flaky = flakyStore()
    const storage = createStorage(flaky.store)
    storage.setToken("old")
    flaky.fail()
    expect(storage.getToken()).toBeNull()
    storage.setToken("new")
    expect(storage.getToken()).toBe("new")
    storage.removeToken()
    expect(storage.getToken()).toBeNull()
  })

  it("works in memory when there is no localStorage at all", () => {
    const storage = createStorage()
    storage.setToken("t")
    expect(storage.getToken()).toBe("t")
  })

  it("keeps the answers to 'from the beginning or live?' by stream and programme, forgetting those too old to be asked about", () => {
    const backing = memoryStore()
    let now = Date.parse("2030-03-01T20:00:00.000Z")
    const storage = createStorage(backing, () => now)
    const final = { streamId: 3, start: "2030-03-01T19:00:00.000Z" }
    expect(storage.getStartOverChoice(final)).toBeNull()
    storage.setStartOverChoice(final, "beginning")
    storage.setStartOverChoice({ streamId: 4, start: "2030-03-01T19:00:00.000Z" }, "live")
    expect(storage.getStartOverChoice(final)).toBe("beginning")
    expect(storage.getStartOverChoice({ streamId: 3, start: "2030-03-01T21:00:00.000Z" })).toBeNull()
    expect(JSON.parse(backing.getItem("startOver") ?? "")).toEqual({
      "3@2030-03-01T19:00:00.000Z": "beginning",
      "4@2030-03-01T19:00:00.000Z": "live"
    })
    now += 4 * 24 * 3_600_000
    storage.setStartOverChoice({ streamId: 3, start: "2030-03-05T19:00:00.000Z" }, "live")
    expect(JSON.parse(backing.getItem("startOver") ?? "")).toEqual({ "3@2030-03-05T19:00:00.000Z": "live" })
    // whatever else is stored there counts as no answers
    backing.setItem("startOver", "[1,2]")
    expect(storage.getStartOverChoice(final)).toBeNull()
    backing.setItem("startOver", "{not json")
    expect(storage.getStartOverChoice(final)).toBeNull()
  })
})
