/**
 * The page's query string with `default` set to the selected stream; every other parameter (the
 * UI flags `ui`, anything an embedder added) stays as it was, in its place.
 */
export const withDefault = (search: string, index: number): string => {
  const params = new URLSearchParams(search)
  params.set("default", String(index))
  return `?${params.toString()}`
}
