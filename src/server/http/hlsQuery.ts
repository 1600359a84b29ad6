/** The query of an LL-HLS blocking playlist reload, as every live playlist route reads it. */

const NUMBER = /^(0|[1-9][0-9]{0,15})$/

/**
 * `_HLS_msn` or `_HLS_part`: undefined when absent, null when not a whole number (query values
 * arrive as strings, or arrays when repeated; anything else is not a directive).
 */
export const directive = (value: unknown): number | null | undefined => {
  if (value === undefined) return undefined
  if (typeof value !== "string" || !NUMBER.test(value)) return null
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : null
}
