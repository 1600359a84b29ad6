import { DEFAULT_PLAYER_CHOICE } from "../../domain/playerChoice.ts"
import {
  keepStartOverChoice,
  parseStartOverChoices,
  type StartOverChoice,
  type StartOverKey,
  startOverName
} from "../../domain/StartOver.ts"
import { ANNOUNCEMENT_STORAGE_KEY, PLAYER_CHOICE_STORAGE_KEY, START_OVER_STORAGE_KEY, TOKEN_STORAGE_KEY } from "../../domain/StorageKeys.ts"
import type { PlayerChoice } from "../../domain/Stream.ts"

/** The few values the browser keeps between visits. */
export interface AppStorage {
  readonly getToken: () => string | null
  readonly setToken: (token: string) => void
  readonly removeToken: () => void
  readonly getAnnouncementToken: () => string | null
  readonly setAnnouncementToken: (token: string) => void
  readonly getPlayerChoice: () => PlayerChoice
  readonly setPlayerChoice: (choice: PlayerChoice) => void
  /** What the viewer answered about a programme when asked to start it from the beginning; null if never asked. */
  readonly getStartOverChoice: (key: StartOverKey) => StartOverChoice | null
  readonly setStartOverChoice: (key: StartOverKey, choice: StartOverChoice) => void
}

/** The subset of the Web Storage API this adapter needs. */
export type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">

export const memoryStore = (): KeyValueStore => {
  const values = new Map<string, string>()
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, String(value)),
    removeItem: (key) => void values.delete(key)
  }
}

/**
 * localStorage when it works. Private browsing, disabled cookies or a sandboxed frame can make
 * the property itself throw or every write fail; the session then lives in memory for this tab.
 */
export const browserStore = (): KeyValueStore => {
  try {
    const store = globalThis.localStorage
    const probe = "__storage_probe__"
    store.setItem(probe, probe)
    store.removeItem(probe)
    return store
  } catch {
    return memoryStore()
  }
}

/** Reads and writes never throw: a failing store (quota, revoked access) falls back to memory. */
const resilient = (primary: KeyValueStore): KeyValueStore => {
  const fallback = memoryStore()
  return {
    getItem: (key) => {
      // the fallback only holds values whose write to the primary failed, so it is the newer one
      const written = fallback.getItem(key)
      if (written !== null) return written
      try {
        return primary.getItem(key)
      } catch {
        return null
      }
    },
    setItem: (key, value) => {
      try {
        primary.setItem(key, value)
        fallback.removeItem(key)
      } catch {
        fallback.setItem(key, value)
      }
    },
    removeItem: (key) => {
      fallback.removeItem(key)
      try {
        primary.removeItem(key)
      } catch {
        // already gone from the fallback, which is what reads consult after a failure
      }
    }
  }
}

const parsePlayerChoice = (raw: string | null): PlayerChoice => (raw === "1" ? 1 : raw === "2" ? 2 : DEFAULT_PLAYER_CHOICE)

export const createStorage = (store: KeyValueStore = browserStore(), now: () => number = Date.now): AppStorage => {
  const safe = resilient(store)
  const nonEmpty = (key: string): string | null => {
    const value = safe.getItem(key)
    return value === null || value === "" ? null : value
  }
  return {
    getToken: () => nonEmpty(TOKEN_STORAGE_KEY),
    setToken: (token) => safe.setItem(TOKEN_STORAGE_KEY, token),
    removeToken: () => safe.removeItem(TOKEN_STORAGE_KEY),
    getAnnouncementToken: () => nonEmpty(ANNOUNCEMENT_STORAGE_KEY),
    setAnnouncementToken: (token) => safe.setItem(ANNOUNCEMENT_STORAGE_KEY, token),
    getPlayerChoice: () => parsePlayerChoice(safe.getItem(PLAYER_CHOICE_STORAGE_KEY)),
    setPlayerChoice: (choice) => safe.setItem(PLAYER_CHOICE_STORAGE_KEY, String(choice)),
    getStartOverChoice: (key) => parseStartOverChoices(safe.getItem(START_OVER_STORAGE_KEY))[startOverName(key)] ?? null,
    setStartOverChoice: (key, choice) => {
      const kept = keepStartOverChoice(parseStartOverChoices(safe.getItem(START_OVER_STORAGE_KEY)), key, choice, now())
      safe.setItem(START_OVER_STORAGE_KEY, JSON.stringify(kept))
    }
  }
}
