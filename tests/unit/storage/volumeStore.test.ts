import { describe, expect, it } from "vitest"
import { memoryStore } from "../../../src/adapters/storage/storage.ts"
import { createVolumeStore, MUTED_STORAGE_KEY, VOLUME_STORAGE_KEY } from "../../../src/adapters/storage/volumeStore.ts"

describe("createVolumeStore", () => {
  it("keeps volume and mute between visits", () => {
    const store = memoryStore()
    createVolumeStore(store).write({ volume: 0.4, muted: true })
    expect(createVolumeStore(store).read()).toEqual({ volume: 0.4, muted: true })
    expect([store.getItem(VOLUME_STORAGE_KEY), store.getItem(MUTED_STORAGE_KEY)]).toEqual(["0.4", "true"])
  })

  it("starts at full volume, unmuted, and ignores values that are not a volume", () => {
    const store = memoryStore()
    expect(createVolumeStore(store).read()).toEqual({ volume: 1, muted: false })
    for (const bad of ["", "loud", "1.5", "-0.1"]) {
      store.setItem(VOLUME_STORAGE_KEY, bad)
      expect(createVolumeStore(store).read().volume).toBe(1)
    }
  })

  it("never throws when storage does", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied")
      },
      setItem: () => {
        throw new Error("full")
      },
      removeItem: () => undefined
    }
    const volumes = createVolumeStore(broken)
    expect(() => volumes.write({ volume: 0.5, muted: false })).not.toThrow()
    expect(volumes.read()).toEqual({ volume: 1, muted: false })
  })
})
