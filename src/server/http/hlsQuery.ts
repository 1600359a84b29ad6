/** The query of an LL-HLS blocking playlist reload, as every live playlist route reads it. */

const NUMBER = /^(0|[1-9][0-9]{0,15})$/

/**
 * `_HLS_msn` or `_HLS_part`: undefined when absent, null when not a whole number (query values
 * arrive as strings, or arrays when repeated; anything else is not a directive).
 */
const directive = (value: unknown): number | null | undefined => {
  if (value === undefined) return undefined
  if (typeof value !== "string" || !NUMBER.test(value)) return null
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : null
}

/** What a playlist request asks for: the playlist now (no `_HLS_msn`), or once it has that segment (and part). */
export type ReloadAsked =
  | { readonly kind: "asked"; readonly msn: number | undefined; readonly part: number | undefined }
  | { readonly kind: "bad"; readonly detail: string }

export const reloadAsked = (query: { readonly _HLS_msn?: unknown; readonly _HLS_part?: unknown }): ReloadAsked => {
  const msn = directive(query._HLS_msn)
  const part = directive(query._HLS_part)
  if (msn === null) return { kind: "bad", detail: "_HLS_msn must be a media sequence number" }
  if (part === null) return { kind: "bad", detail: "_HLS_part must be a part index" }
  if (part !== undefined && msn === undefined) return { kind: "bad", detail: "_HLS_part needs _HLS_msn" }
  return { kind: "asked", msn, part }
}
