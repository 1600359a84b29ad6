// Arriving late: "start from the beginning or watch live?" is asked once per programme
// of a stream, and the browser keeps the answer. Kept free of the schema library, like the other
// values the browser stores.

/** What the viewer answered when asked about one programme. */
export type StartOverChoice = "beginning" | "live"

/** The programme an answer is about: its stream, and its start as the guide gives it (ISO). */
export interface StartOverKey {
  readonly streamId: number
  readonly start: string
}

/** An answer is kept this long after its programme began: longer than any time-shift window (48 h). */
export const START_OVER_MEMORY_MS = 3 * 24 * 3_600_000

/** The answers kept, by `streamId@start`, pruned of programmes too old to be asked about again. */
export const keepStartOverChoice = (
  stored: Readonly<Record<string, StartOverChoice>>,
  key: StartOverKey,
  choice: StartOverChoice,
  now: number
): Record<string, StartOverChoice> => {
  const kept = Object.entries(stored).filter(([name]) => now - Date.parse(name.slice(name.indexOf("@") + 1)) < START_OVER_MEMORY_MS)
  return { ...Object.fromEntries(kept), [startOverName(key)]: choice }
}

export const startOverName = (key: StartOverKey): string => `${key.streamId}@${key.start}`

/** The stored answers, read leniently: anything else than a map of answers is no answers. */
export const parseStartOverChoices = (raw: string | null): Record<string, StartOverChoice> => {
  try {
    const value: unknown = JSON.parse(raw ?? "{}")
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {}
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, StartOverChoice] => entry[1] === "beginning" || entry[1] === "live")
    )
  } catch {
    return {}
  }
}
