/**
 * The last value read, kept for as long as `version` (a table's change count, see
 * `Db.tableVersion`) says nothing has changed: for rows every request asks for and an operator
 * rarely changes. Callers that arrive while a read is under way for the same version share it. A
 * read is kept under the version asked before it began, and only if the version is unchanged once
 * it is done: a change committed during the read may or may not be in it. Without a version (a
 * transaction open, the change listener not connected), every call reads. A failed read is not
 * kept. The value is shared by every caller: none may change it.
 */
export function keptWhileUnchanged<T>(read: () => Promise<T>, version: () => number | undefined): () => Promise<T> {
  let kept: { readonly version: number; readonly value: Promise<T> } | undefined
  return () => {
    const at = version()
    if (at === undefined) return read()
    if (kept?.version === at) return kept.value
    const entry = { version: at, value: read() }
    kept = entry
    const forget = () => {
      if (kept === entry) kept = undefined
    }
    entry.value.then(() => {
      if (version() !== at) forget()
    }, forget)
    return entry.value
  }
}
