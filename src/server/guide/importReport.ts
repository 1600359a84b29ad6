import type { GuideImportProgress, GuideImportResult } from "./importGuide.ts"

const count = (n: number): string => n.toLocaleString("en-US")
const plural = (n: number, one: string, many: string): string => `${count(n)} ${n === 1 ? one : many}`
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`
/** `2026-11-23T06:00:00.000Z` → `2026-11-23 06:00` */
const minute = (iso: string): string => iso.slice(0, 16).replace("T", " ")

/** The progress line: programmes and channels read so far, and for how long. */
export function describeProgress(progress: GuideImportProgress, elapsedMs: number): string {
  return `Reading the guide: ${plural(progress.programmes, "programme", "programmes")}, ${plural(progress.channels, "channel", "channels")}, ${seconds(elapsedMs)}`
}

/** The summary of an import that went through. */
export function describeImport(result: GuideImportResult, source: string, elapsedMs: number): string {
  const span = result.window === undefined ? "" : `, ${minute(result.window.from)} to ${minute(result.window.to)} UTC`
  return (
    `Imported ${plural(result.programmes, "programme", "programmes")} on ${plural(result.channels, "channel", "channels")} ` +
    `from ${source} in ${seconds(elapsedMs)}${span}` +
    counted("repaired", result.repaired) +
    counted("skipped", result.skipped)
  )
}

/** `; repaired 3 programmes (2 why, 1 why)`, or nothing when there were none. */
function counted(what: string, reasons: ReadonlyMap<string, number>): string {
  const total = [...reasons.values()].reduce((sum, n) => sum + n, 0)
  if (total === 0) return ""
  return `; ${what} ${plural(total, "programme", "programmes")} (${[...reasons].map(([reason, n]) => `${count(n)} ${reason}`).join(", ")})`
}

/** Where and why an import failed: the line and column for a malformed file. */
export function describeFailure(error: unknown, source: string): string {
  return `${source}: ${error instanceof Error ? error.message : String(error)}`
}
