import { readPlayerStart } from "../../domain/Timeshift.ts"

/**
 * The page's query string with `default` set to the selected stream; every other parameter (the
 * UI flags `ui`, anything an embedder added) stays as it was, in its place.
 */
export const withDefault = (search: string, index: number): string => {
  const params = new URLSearchParams(search)
  params.set("default", String(index))
  return `?${params.toString()}`
}

/**
 * The query without the start it named (`stream`, and `from` when it is a moment): they were about
 * the stream the page opened with, not one chosen since, and the low-latency player has no window
 * to start a moment in.
 */
export const withoutStart = (search: string): string => {
  const params = new URLSearchParams(withoutMoment(search))
  params.delete("stream")
  return params.size === 0 ? "" : `?${params.toString()}`
}

/** The query without its moment (`from`, when it is one: another `from` is an embedder's own and stays). */
export const withoutMoment = (search: string): string => {
  if (readPlayerStart(search).from === undefined) return search
  const params = new URLSearchParams(search)
  params.delete("from")
  return params.size === 0 ? "" : `?${params.toString()}`
}

/** The query for playing `streamId` from the moment `at` (epoch ms), the rest kept. */
export const withStart = (search: string, streamId: number, at: number): string => {
  const params = new URLSearchParams(withoutStart(search))
  params.set("stream", String(streamId))
  params.set("from", new Date(at).toISOString())
  return `?${params.toString()}`
}
