/**
 * An upstream playlist as our origin serves it: read with m3u8-parser for what the feed needs to
 * know (sequences, parts, blocking reload), rewritten line by line so every URI is ours and
 * carries the viewer's grant. Unknown tags pass through untouched.
 */
import { createHash } from "node:crypto"
import { Parser } from "m3u8-parser"

/** Where a viewer's grant goes in a rewritten playlist; it cannot occur in one (NULs are dropped). */
export const GRANT = "\u0000"

/** An upstream URI a rewritten playlist names, by its local name. */
export interface UpstreamUri {
  readonly url: string
  /** a playlist (a variant or rendition), followed like the channel's own; otherwise media */
  readonly playlist: boolean
  /** media that is a sub-range of the resource (EXT-X-BYTERANGE and BYTERANGE attributes): ours is that range alone */
  readonly range?: ByteRange
}

export interface ByteRange {
  readonly offset: number
  readonly length: number
}

/** How far a media playlist has got: the segment being produced and its parts published so far. */
export interface PlaylistEdge {
  readonly sequence: number
  readonly parts: number
}

/** A complete segment a media playlist lists, as the time-shift window keeps it. */
export interface ListedSegment {
  /** in our numbering */
  readonly sequence: number
  /** seconds */
  readonly duration: number
  /** its local name; undefined when it is not fetched by us (a data: URI) */
  readonly name: string | undefined
  /** the local name of the init section it needs */
  readonly map: string | undefined
  readonly discontinuity: boolean
  /** epoch ms, when the playlist says (its own tag, or counted on from an earlier one) */
  readonly programDateTime: number | undefined
  /** encrypted (a key other than NONE applies) */
  readonly encrypted: boolean
  readonly gap: boolean
}

export interface RelayPlaylist {
  /** the rewritten text, split where each viewer's grant goes */
  readonly pieces: ReadonlyArray<string>
  /** every URI it names, by local name */
  readonly uris: ReadonlyMap<string, UpstreamUri>
  readonly multivariant: boolean
  /** seconds */
  readonly targetDuration: number
  /** seconds; 0 without parts */
  readonly partTarget: number
  readonly canBlockReload: boolean
  readonly endList: boolean
  /** media playlists: in our numbering (the upstream's plus the feed's offset) */
  readonly firstSequence: number
  readonly edge: PlaylistEdge
  readonly discontinuitySequence: number
  /** a media playlist's complete segments, oldest first (the relay's; the packager keeps its own) */
  readonly segments?: ReadonlyArray<ListedSegment>
}

export interface Numbering {
  /** added to the upstream's media sequences */
  readonly sequenceOffset: number
  /** added to the upstream's discontinuity sequence */
  readonly discontinuityOffset: number
}

export class PlaylistError extends Error {
  override readonly name = "PlaylistError"
}

/** A URI's stable local name: the same upstream URL gets the same name on every instance. */
export const localName = (url: string, playlist: boolean): string => {
  const key = createHash("sha256").update(url).digest("base64url").slice(0, 22)
  if (playlist) return `${key}.m3u8`
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(new URL(url).pathname)?.[1]?.toLowerCase()
  return extension === undefined || extension === "m3u8" ? key : `${key}.${extension}`
}

/** The local path of a name: playlists under `p/`, media under `m/`. */
export const localPath = (channel: string, name: string, playlist: boolean): string => `/live/${channel}/${playlist ? "p" : "m"}/${name}`

// Tags whose URI attribute names another playlist; every other URI attribute names media (MAP,
// PART, PRELOAD-HINT, KEY, SESSION-KEY, SESSION-DATA).
const PLAYLIST_TAGS = new Set(["#EXT-X-MEDIA", "#EXT-X-I-FRAME-STREAM-INF", "#EXT-X-RENDITION-REPORT"])
const URI_ATTRIBUTE = /URI="([^"]*)"/
// `n[@o]` in EXT-X-BYTERANGE and the BYTERANGE attribute of EXT-X-MAP and EXT-X-PART
const RANGE = /^(\d{1,15})(?:@(\d{1,15}))?$/
const RANGE_ATTRIBUTE = /,?BYTERANGE="([^"]*)"/
const HINT_RANGE_ATTRIBUTES = /,?BYTERANGE-(START|LENGTH)=(\d{1,15})/g

const tagOf = (line: string): string => line.slice(0, line.includes(":") ? line.indexOf(":") : line.length)

/** The playlist a viewer is sent: the rewritten text with their grant in every URI. */
export const withViewerGrant = (playlist: RelayPlaylist, grant: string): string => playlist.pieces.join(encodeURIComponent(grant))

/** Where the instance that owns a channel's feed serves it to the other instances. */
export const peerPath = (channel: string, name: string | undefined, playlist: boolean): string =>
  name === undefined ? `/internal/relay/${channel}/index.m3u8` : `/internal/relay/${channel}/${playlist ? "p" : "m"}/${name}`

/**
 * The whole playlist, rewritten; throws PlaylistError when the text is not one. From a peer (the
 * instance that owns the feed), URIs are already ours: they keep their names and are fetched
 * from the peer's internal paths, so every instance names every segment alike.
 */
export function rewritePlaylist(text: string, baseUrl: string, channel: string, numbering: Numbering, fromPeer = false): RelayPlaylist {
  const clean = text.replace(/^\uFEFF/, "").replaceAll(GRANT, "")
  if (!clean.startsWith("#EXTM3U")) throw new PlaylistError("the upstream's answer is not a playlist (no #EXTM3U)")
  const parser = new Parser()
  parser.push(clean)
  parser.end()
  const manifest = parser.manifest
  const multivariant = (manifest.playlists?.length ?? 0) > 0
  const uris = new Map<string, UpstreamUri>()
  // where the next sub-range of each resource starts, for ranges that give no offset (segments and parts apart)
  const rangeEnds = new Map<string, number>()
  const ours = (uri: string, playlist: boolean, range?: RangeText & { readonly of: string }): string | undefined => {
    let url: URL
    try {
      url = new URL(uri, baseUrl)
    } catch {
      return undefined
    }
    // data:, skd: and the like are not fetched by us; they pass through as they are
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined
    url.hash = ""
    if (fromPeer) {
      const [, kind, peerName] = /^\/live\/[^/]+\/(p|m)\/([^/]+)$/.exec(url.pathname) ?? []
      if (kind === undefined || peerName === undefined || url.origin !== new URL(baseUrl).origin) return undefined
      uris.set(peerName, { url: new URL(peerPath(channel, peerName, kind === "p"), baseUrl).href, playlist: kind === "p" })
      return `${localPath(channel, peerName, kind === "p")}?grant=${GRANT}`
    }
    if (range === undefined || playlist) {
      const name = localName(url.href, playlist)
      uris.set(name, { url: url.href, playlist })
      return `${localPath(channel, name, playlist)}?grant=${GRANT}`
    }
    const offset = range.offset ?? rangeEnds.get(`${range.of} ${url.href}`) ?? 0
    rangeEnds.set(`${range.of} ${url.href}`, offset + range.length)
    const name = localName(`${url.href}#bytes=${offset}-${offset + range.length - 1}`, false)
    uris.set(name, { url: url.href, playlist: false, range: { offset, length: range.length } })
    return `${localPath(channel, name, false)}?grant=${GRANT}`
  }
  let pendingRange: RangeText | undefined
  const upstreamFirst = manifest.mediaSequence ?? 0
  const out: Array<string> = []
  let nextIsPlaylist = false
  const listed = new SegmentList(upstreamFirst + numbering.sequenceOffset)
  for (const raw of clean.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === "") continue
    if (!line.startsWith("#")) {
      const range = pendingRange
      pendingRange = undefined
      const playlist = nextIsPlaylist || multivariant
      const local = ours(line, playlist, range === undefined ? undefined : { ...range, of: "segment" })
      // a range we cannot fetch as ours stays the upstream's, with its tag
      if (local === undefined && range !== undefined)
        out.push(`#EXT-X-BYTERANGE:${range.length}${range.offset === undefined ? "" : `@${range.offset}`}`)
      out.push(local ?? line)
      if (!playlist) listed.segment(local)
      nextIsPlaylist = false
      continue
    }
    const tag = tagOf(line)
    listed.tag(tag, line)
    // our copy of a sub-range is the whole of its own object
    if (tag === "#EXT-X-BYTERANGE") {
      pendingRange = rangeOf(line.slice(tag.length + 1))
      if (pendingRange === undefined) throw new PlaylistError(`the upstream's playlist has a bad byte range (${line.slice(0, 80)})`)
      continue
    }
    if (tag === "#EXT-X-PRELOAD-HINT" && line.includes("BYTERANGE-")) {
      const hint = Object.fromEntries([...line.matchAll(HINT_RANGE_ATTRIBUTES)].map((match) => [match[1], Number(match[2])]))
      // a hint of a range still growing cannot be fetched as one object: without the hint, the player asks once the part is listed
      if (hint.LENGTH === undefined) continue
      const attribute = URI_ATTRIBUTE.exec(line)?.[1]
      // not counted as a part: the part it becomes is listed with its own range
      const local =
        attribute === undefined ? undefined : ours(attribute, false, { offset: hint.START ?? 0, length: hint.LENGTH, of: "hint" })
      out.push(local === undefined ? line : withoutAttributes(line, HINT_RANGE_ATTRIBUTES).replace(URI_ATTRIBUTE, `URI="${local}"`))
      continue
    }
    if (tag === "#EXT-X-STREAM-INF") nextIsPlaylist = true
    if (tag === "#EXT-X-MEDIA-SEQUENCE") {
      out.push(`#EXT-X-MEDIA-SEQUENCE:${upstreamFirst + numbering.sequenceOffset}`)
      continue
    }
    if (tag === "#EXT-X-DISCONTINUITY-SEQUENCE") {
      out.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${(manifest.discontinuitySequence ?? 0) + numbering.discontinuityOffset}`)
      continue
    }
    // we always fetch whole playlists, so no viewer may ask for a delta update
    if (tag === "#EXT-X-SERVER-CONTROL") {
      out.push(line.replace(/,?CAN-SKIP-(UNTIL|DATERANGES)=[^,]*/g, "").replace(":,", ":"))
      continue
    }
    // another rendition's numbers are not ours to vouch for once the feed has renumbered
    if (tag === "#EXT-X-RENDITION-REPORT" && numbering.sequenceOffset !== 0) continue
    const attribute = URI_ATTRIBUTE.exec(line)
    if (attribute !== null && attribute[1] !== undefined) {
      const rangeText = RANGE_ATTRIBUTE.exec(line)?.[1]
      const range = rangeText === undefined ? undefined : rangeOf(rangeText)
      if (rangeText !== undefined && range === undefined)
        throw new PlaylistError(`the upstream's playlist has a bad byte range (${line.slice(0, 80)})`)
      const local = ours(attribute[1], PLAYLIST_TAGS.has(tag), range === undefined ? undefined : { ...range, of: tag })
      if (tag === "#EXT-X-MAP") listed.map(local)
      if (local === undefined) out.push(line)
      else out.push((range === undefined ? line : withoutAttributes(line, RANGE_ATTRIBUTE)).replace(URI_ATTRIBUTE, `URI="${local}"`))
      continue
    }
    out.push(line)
  }
  if (!multivariant && manifest.segments.length === 0 && (manifest.preloadSegment?.parts?.length ?? 0) === 0) {
    throw new PlaylistError("the upstream's playlist lists no segments")
  }
  // a discontinuity sequence the upstream never wrote must still move when the feed renumbers
  if (numbering.discontinuityOffset !== 0 && !out.some((line) => line.startsWith("#EXT-X-DISCONTINUITY-SEQUENCE"))) {
    const at = out.findIndex((line) => line.startsWith("#EXT-X-MEDIA-SEQUENCE"))
    out.splice(at === -1 ? 1 : at + 1, 0, `#EXT-X-DISCONTINUITY-SEQUENCE:${numbering.discontinuityOffset}`)
  }
  const completed = manifest.segments.length
  const firstSequence = upstreamFirst + numbering.sequenceOffset
  return {
    pieces: `${out.join("\n")}\n`.split(GRANT),
    uris,
    multivariant,
    targetDuration: manifest.targetDuration ?? 6,
    partTarget: manifest.partTargetDuration ?? 0,
    canBlockReload: manifest.serverControl?.canBlockReload === true,
    endList: manifest.endList === true,
    firstSequence,
    edge: { sequence: firstSequence + completed, parts: manifest.preloadSegment?.parts?.length ?? 0 },
    discontinuitySequence: (manifest.discontinuitySequence ?? 0) + numbering.discontinuityOffset,
    ...(multivariant ? {} : { segments: listed.segments })
  }
}

/** The local name in one of our media paths (`/live/<channel>/m/<name>?grant=…`). */
const nameIn = (local: string | undefined): string | undefined => (local === undefined ? undefined : /\/m\/([^/?]+)\?/.exec(local)?.[1])

/** The complete segments of a media playlist, as its lines go by. */
class SegmentList {
  readonly segments: Array<ListedSegment> = []
  private sequence: number
  private duration = 0
  private discontinuity = false
  private gap = false
  private programDateTime: number | undefined
  private currentMap: string | undefined
  private encrypted = false

  constructor(firstSequence: number) {
    this.sequence = firstSequence
  }

  tag(tag: string, line: string): void {
    const value = line.slice(tag.length + 1)
    if (tag === "#EXTINF") this.duration = Number.parseFloat(value) || 0
    else if (tag === "#EXT-X-DISCONTINUITY") this.discontinuity = true
    else if (tag === "#EXT-X-GAP") this.gap = true
    else if (tag === "#EXT-X-PROGRAM-DATE-TIME") {
      const at = Date.parse(value)
      this.programDateTime = Number.isFinite(at) ? at : undefined
    } else if (tag === "#EXT-X-KEY") this.encrypted = !/METHOD=NONE(,|$)/.test(value)
  }

  map(local: string | undefined): void {
    this.currentMap = nameIn(local)
  }

  segment(local: string | undefined): void {
    const previous = this.segments.at(-1)
    // a date the playlist gave an earlier segment counts on, until a discontinuity
    const counted =
      previous?.programDateTime !== undefined && !this.discontinuity ? previous.programDateTime + previous.duration * 1000 : undefined
    this.segments.push({
      sequence: this.sequence,
      duration: this.duration,
      name: nameIn(local),
      map: this.currentMap,
      discontinuity: this.discontinuity,
      programDateTime: this.programDateTime ?? counted,
      encrypted: this.encrypted,
      gap: this.gap
    })
    this.sequence += 1
    this.duration = 0
    this.discontinuity = false
    this.gap = false
    this.programDateTime = undefined
  }
}

interface RangeText {
  readonly length: number
  /** unset: right after the previous sub-range of the same resource */
  readonly offset: number | undefined
}

/** The tag line without the attributes `pattern` matches (each with the comma before it). */
const withoutAttributes = (line: string, pattern: RegExp): string => line.replace(pattern, "").replace(/^(#[A-Z0-9-]+:),/, "$1")

const rangeOf = (text: string): RangeText | undefined => {
  const match = RANGE.exec(text.trim())
  if (match === null || Number(match[1]) === 0) return undefined
  return { length: Number(match[1]), offset: match[2] === undefined ? undefined : Number(match[2]) }
}

/**
 * Whether a playlist answers a blocking reload for `sequence` (and `part`): the segment is
 * complete, or the part is published. Without a part, the whole segment is asked for.
 */
export const reaches = (edge: PlaylistEdge, sequence: number, part: number | undefined): boolean =>
  sequence < edge.sequence || (part !== undefined && sequence === edge.sequence && part < edge.parts)
