// How the TV player writes wall-clock moments of the time-shift window: en-GB, 24 hours (SPEC §9).

const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })

/** "20:14", in the viewer's zone. */
export const wallClock = (epochMs: number): string => clock.format(epochMs)

/** "40 s", "36 min", "1 h 05 min". */
export const spanText = (ms: number): string => {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`
}

/** The moment on screen: "20:14 · 36 min behind live", or just the time at the live edge. */
export const momentText = (at: number, behindMs: number | null): string =>
  behindMs === null ? wallClock(at) : `${wallClock(at)} · ${spanText(behindMs)} behind live`
