/** A segment of a media playlist: its URI as written and where it starts in the playlist. */
export interface StartSegment {
  readonly uri: string
  /** seconds from the start of the playlist's first segment */
  readonly start: number
  readonly duration: number
}

/** Tags that leave the start to the player library: rendition choice, keys, init segments, ranges, an explicit start. */
const LIBRARY_DECIDES = /^#EXT-X-(STREAM-INF|I-FRAME-STREAM-INF|MAP|BYTERANGE|START|SKIP)\b/
const ENCRYPTED = /^#EXT-X-KEY:(?!.*METHOD=NONE)/

/**
 * The segment a player should start a media playlist with, decided before the player library
 * has loaded so that segment can be fetched alongside it: the first segment of a VOD; for live,
 * the one holding the point `targetDurationsBack` target durations behind the newest data (the
 * distance hls.js itself keeps by default), never later than one target duration from the edge.
 * Null where the choice is better left to the library (see LIBRARY_DECIDES) or there is nothing.
 */
export const playlistStart = (text: string, targetDurationsBack = 3): StartSegment | null => {
  const lines = text.split(/\r?\n/).map((line) => line.trim())
  if (lines[0] !== "#EXTM3U") return null
  const segments: Array<StartSegment> = []
  let targetDuration = 0
  let ended = false
  let pendingDuration: number | null = null
  let total = 0
  for (const line of lines) {
    if (line === "") continue
    if (LIBRARY_DECIDES.test(line) || ENCRYPTED.test(line)) return null
    if (line.startsWith("#EXT-X-TARGETDURATION:")) targetDuration = Number(line.slice(22))
    else if (line === "#EXT-X-ENDLIST") ended = true
    else if (line.startsWith("#EXTINF:")) pendingDuration = Number.parseFloat(line.slice(8))
    else if (!line.startsWith("#") && pendingDuration !== null) {
      if (!(pendingDuration >= 0)) return null
      segments.push({ uri: line, start: total, duration: pendingDuration })
      total += pendingDuration
      pendingDuration = null
    }
  }
  const first = segments[0]
  if (first === undefined) return null
  if (ended) return first
  if (!(targetDuration > 0)) return null
  const latest = Math.max(0, total - targetDuration)
  const position = Math.min(Math.max(0, total - targetDurationsBack * targetDuration), latest)
  return segments.find((segment) => position < segment.start + segment.duration) ?? segments[segments.length - 1] ?? first
}
