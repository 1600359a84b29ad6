import { browserStore, type KeyValueStore } from "./storage.ts"

export interface StoredVolume {
  /** 0…1 */
  readonly volume: number
  readonly muted: boolean
}

export interface VolumeStore {
  readonly read: () => StoredVolume
  readonly write: (setting: StoredVolume) => void
}

export const VOLUME_STORAGE_KEY = "playerVolume"
export const MUTED_STORAGE_KEY = "playerMuted"
export const DEFAULT_STORED_VOLUME: StoredVolume = { volume: 1, muted: false }

const parseVolume = (raw: string | null): number => {
  const volume = raw === null || raw.trim() === "" ? Number.NaN : Number(raw)
  return Number.isFinite(volume) && volume >= 0 && volume <= 1 ? volume : DEFAULT_STORED_VOLUME.volume
}

/** The player's volume and mute between visits (SPEC §9). Storage that fails just forgets. */
export const createVolumeStore = (store: KeyValueStore = browserStore()): VolumeStore => ({
  read: () => {
    try {
      return { volume: parseVolume(store.getItem(VOLUME_STORAGE_KEY)), muted: store.getItem(MUTED_STORAGE_KEY) === "true" }
    } catch {
      return DEFAULT_STORED_VOLUME
    }
  },
  write: ({ volume, muted }) => {
    try {
      store.setItem(VOLUME_STORAGE_KEY, String(Math.round(volume * 1000) / 1000))
      store.setItem(MUTED_STORAGE_KEY, String(muted))
    } catch {
      // a full or revoked store: the setting lasts for this page only
    }
  }
})
