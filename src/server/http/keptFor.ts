/**
 * A value read at most once per `ms` of `clock` (real time unless given): calls in between share
 * the last read, under way or done; a failed read is tried again at the next call, and so is one
 * from before the clock went back. For a site setting that every request consults and an operator
 * rarely changes.
 */
export function keptFor<T>(ms: number, read: () => Promise<T>, clock: () => number = () => performance.now()): () => Promise<T> {
  let kept: { readonly at: number; readonly value: Promise<T> } | undefined
  return () => {
    const at = clock()
    if (kept === undefined || at - kept.at >= ms || at < kept.at) {
      const entry = { at, value: read() }
      kept = entry
      entry.value.catch(() => {
        if (kept === entry) kept = undefined
      })
    }
    return kept.value
  }
}
