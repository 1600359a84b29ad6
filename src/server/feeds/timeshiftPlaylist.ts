/**
 * The TV player's playlist of a relayed, pulled or ingested channel with its time-shift window: the
 * live playlist as it is (parts, preload hint, blocking reload), with the window's older segments
 * written from its index in front of them as whole segments, one sliding live DVR range. It offers
 * delta updates (`CAN-SKIP-UNTIL`); asked for one (`_HLS_skip=YES`), the segments older than that
 * are replaced by `#EXT-X-SKIP`. Every window segment carries its program date time.
 */
import { GRANT, localPath, type RelayPlaylist } from "./relayPlaylist.ts"
import type { WindowIndex, WindowSegment } from "./timeshiftIndex.ts"

/**
 * How far back from its end a time-shift playlist lists segments in a delta update, in seconds:
 * six target durations, the spec's least. A player reloads every target duration or sooner (by
 * blocking reload), well within the half of it hls.js wants its copy younger than to ask for one.
 */
export const skipUntilOf = (targetDuration: number): number => 6 * targetDuration

// Tags that describe the whole playlist; the first line that is none of them starts the segments.
const HEADER_TAGS = new Set([
  "#EXTM3U",
  "#EXT-X-VERSION",
  "#EXT-X-TARGETDURATION",
  "#EXT-X-MEDIA-SEQUENCE",
  "#EXT-X-DISCONTINUITY-SEQUENCE",
  "#EXT-X-SERVER-CONTROL",
  "#EXT-X-PART-INF",
  "#EXT-X-PLAYLIST-TYPE",
  "#EXT-X-INDEPENDENT-SEGMENTS",
  "#EXT-X-START",
  "#EXT-X-DEFINE",
  "#EXT-X-ALLOW-CACHE"
])
const SEGMENT_STARTS = /^(#EXTINF:|#EXT-X-PART:|#EXT-X-PRELOAD-HINT:|[^#])/

const tagOf = (line: string): string => line.slice(0, line.includes(":") ? line.indexOf(":") : line.length)

export interface WindowedOptions {
  readonly channel: string
  /** the player asked for a delta update */
  readonly skip: boolean
}

/**
 * The live playlist with the window's segments before its first one; undefined when the window
 * does not reach the live playlist's first segment (it is just starting, or was cut short by a
 * cap), the playlist then goes out as it is.
 */
export function windowedPlaylist(live: RelayPlaylist, window: WindowIndex, options: WindowedOptions): Array<string> | undefined {
  const first = window.first
  const liveFirst = live.firstSequence
  if (live.multivariant || live.endList || first === undefined || first > liveFirst || (window.next ?? first) < liveFirst) return undefined
  const lines = live.pieces.join(GRANT).split("\n")
  if (lines.at(-1) === "") lines.pop()
  let bodyAt = lines.findIndex((line) => !HEADER_TAGS.has(tagOf(line)))
  if (bodyAt === -1) bodyAt = lines.length
  const header = lines.slice(0, bodyAt)
  const body = lines.slice(bodyAt)

  const targetDuration = Math.max(live.targetDuration, window.longestRounded())
  const skipUntil = skipUntilOf(targetDuration)
  const liveSeconds = body.reduce((sum, line) => (line.startsWith("#EXTINF:") ? sum + (Number.parseFloat(line.slice(8)) || 0) : sum), 0)
  const firstStart = (window.oldest() as WindowSegment).start
  const last = window.at(liveFirst - 1)
  const windowSeconds = last === undefined ? 0 : last.start + last.duration - firstStart
  // segments starting before this are left out of a delta update
  const keepFrom = firstStart + windowSeconds + liveSeconds - skipUntil
  const listedFrom = options.skip ? window.firstStartingAt(keepFrom, first, liveFirst) : first

  const out = withHeader(header, {
    targetDuration,
    mediaSequence: first,
    discontinuitySequence: window.discontinuitySequence,
    skipUntil
  })
  if (listedFrom > first) out.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${listedFrom - first}`)
  const older =
    listedFrom === first ? wholeWindow(window, options.channel, liveFirst) : windowLines(window, options.channel, listedFrom, liveFirst)
  if (older !== "") out.push(older)
  // the live playlist's first segment follows the window's last after a gap (the feed started again): the live text does not say so
  const opening = body.findIndex((line) => SEGMENT_STARTS.test(line))
  const opened = body.slice(0, opening === -1 ? body.length : opening)
  if (window.at(liveFirst)?.discontinuity === true && !opened.includes("#EXT-X-DISCONTINUITY")) out.push("#EXT-X-DISCONTINUITY")
  out.push(...body)
  return `${out.join("\n")}\n`.split(GRANT)
}

/** The window's segments from `from` up to the live playlist's first, as playlist lines. */
function windowLines(window: WindowIndex, channel: string, from: number, to: number): string {
  const uri = (name: string) => `${localPath(channel, name, false)}?grant=${GRANT}`
  const out: Array<string> = []
  let map: string | undefined
  for (const segment of window.range(from, to)) {
    if (segment.discontinuity) out.push("#EXT-X-DISCONTINUITY")
    if (segment.map !== map) {
      map = segment.map
      if (map !== undefined) out.push(`#EXT-X-MAP:URI="${uri(map)}"`)
    }
    out.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(Math.round(segment.programDateTime)).toISOString()}`)
    if (segment.gap) out.push("#EXT-X-GAP")
    out.push(`#EXTINF:${segment.duration.toFixed(3)},`, uri(segment.name))
  }
  return out.join("\n")
}

// The whole window's lines, the same for every viewer of a channel until it changes (the grant goes
// in later): written once for all the players that start while the live playlist stays where it is.
const written = new WeakMap<WindowIndex, { readonly key: string; readonly text: string }>()

function wholeWindow(window: WindowIndex, channel: string, to: number): string {
  const key = `${window.epoch} ${window.version} ${to}`
  const kept = written.get(window)
  if (kept?.key === key) return kept.text
  const text = windowLines(window, channel, window.first ?? to, to)
  written.set(window, { key, text })
  return text
}

interface Header {
  readonly targetDuration: number
  readonly mediaSequence: number
  readonly discontinuitySequence: number
  readonly skipUntil: number
}

/** The live playlist's header, numbered from the window's first segment, at version 9 (delta updates), offering them. */
function withHeader(lines: ReadonlyArray<string>, header: Header): Array<string> {
  const out: Array<string> = []
  const seen = new Set<string>()
  for (const line of lines) {
    const tag = tagOf(line)
    seen.add(tag)
    if (tag === "#EXT-X-VERSION") out.push(`#EXT-X-VERSION:${Math.max(9, Number.parseInt(line.slice(tag.length + 1), 10) || 0)}`)
    else if (tag === "#EXT-X-TARGETDURATION") out.push(`#EXT-X-TARGETDURATION:${header.targetDuration}`)
    else if (tag === "#EXT-X-MEDIA-SEQUENCE") out.push(`#EXT-X-MEDIA-SEQUENCE:${header.mediaSequence}`)
    else if (tag === "#EXT-X-DISCONTINUITY-SEQUENCE") out.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${header.discontinuitySequence}`)
    else if (tag === "#EXT-X-SERVER-CONTROL") {
      const others = line
        .slice(tag.length + 1)
        .split(",")
        .filter((attribute) => attribute !== "" && !/^CAN-SKIP-(UNTIL|DATERANGES)=/.test(attribute))
      out.push(`#EXT-X-SERVER-CONTROL:${[...others, `CAN-SKIP-UNTIL=${header.skipUntil.toFixed(1)}`].join(",")}`)
    } else out.push(line)
  }
  const missing: Array<string> = []
  if (!seen.has("#EXT-X-VERSION")) missing.push("#EXT-X-VERSION:9")
  if (!seen.has("#EXT-X-TARGETDURATION")) missing.push(`#EXT-X-TARGETDURATION:${header.targetDuration}`)
  if (!seen.has("#EXT-X-SERVER-CONTROL")) missing.push(`#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=${header.skipUntil.toFixed(1)}`)
  if (!seen.has("#EXT-X-MEDIA-SEQUENCE")) missing.push(`#EXT-X-MEDIA-SEQUENCE:${header.mediaSequence}`)
  if (!seen.has("#EXT-X-DISCONTINUITY-SEQUENCE")) missing.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${header.discontinuitySequence}`)
  out.splice(out[0] === "#EXTM3U" ? 1 : 0, 0, ...missing)
  return out
}
