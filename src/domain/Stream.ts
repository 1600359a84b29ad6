import * as Schema from "effect/Schema"
import { playerPath, sourceFor } from "./playerChoice.ts"

/** A playlist item (SPEC §3). A missing `src` means the viewer needs a subscription. */
export class Stream extends Schema.Class<Stream>("Stream")({
  id: Schema.Number,
  title: Schema.String,
  src: Schema.NullOr(Schema.String),
  src_sldp: Schema.NullOr(Schema.String),
  image_location: Schema.String,
  tags: Schema.String,
  tags_sldp: Schema.String,
  maintenance_mode: Schema.Boolean
}) {}

/**
 * A player page opened directly asks for the streams with the stream and player it will play
 * (`?start=N&player=P`, P as in SPEC §4): when our own origin serves that stream, the answer also
 * carries its playlist, fetched for the viewer as the player itself would, so the player's first
 * round trip of its own is for the first segment.
 */
export const StreamsQuery = Schema.Struct({
  start: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[0-9]{1,4}$/))),
  player: Schema.optionalKey(Schema.Literals(["1", "2"]))
})
export type StreamsQuery = typeof StreamsQuery.Type

/** The chosen stream's playlist: `url` is its source in `data`, grant and all. */
export const StartPlaylist = Schema.Struct({ url: Schema.String, text: Schema.String })
export type StartPlaylist = typeof StartPlaylist.Type

/** The streams call's answer: the list, and the playlist a player page's call asked for. */
export const StreamsResponse = Schema.Struct({
  success: Schema.Boolean,
  data: Schema.Array(Stream),
  playlist: Schema.optionalKey(StartPlaylist)
})

/** Tag conventions of SPEC §3: '!' warning, '?' info, three icon tags, anything else a label. */
export type Tag =
  | { readonly kind: "warning"; readonly text: string }
  | { readonly kind: "info"; readonly text: string }
  | { readonly kind: "chromecast" | "airplay" | "lls"; readonly text: string }
  | { readonly kind: "label"; readonly text: string }

const iconTags = new Set(["chromecast", "airplay", "lls"])

export const parseTag = (raw: string): Tag | undefined => {
  const tag = raw.trim()
  if (tag === "") return undefined
  if (tag.startsWith("!")) return { kind: "warning", text: tag.slice(1).trim() }
  if (tag.startsWith("?")) return { kind: "info", text: tag.slice(1).trim() }
  const lower = tag.toLowerCase()
  if (iconTags.has(lower)) return { kind: lower as "chromecast" | "airplay" | "lls", text: lower }
  return { kind: "label", text: tag }
}

export const parseTags = (tags: string): ReadonlyArray<Tag> =>
  tags.split(",").flatMap((raw) => {
    const tag = parseTag(raw)
    return tag === undefined ? [] : [tag]
  })

/** Player choice (SPEC §4): 1 is the TV player, 2 the low-latency player; 2 by default. */
export const PlayerChoice = Schema.Literals([1, 2])
export type PlayerChoice = typeof PlayerChoice.Type

/** What choosing a stream leads to (SPEC §4). */
export type StreamChoice =
  | { readonly kind: "maintenance" }
  | { readonly kind: "purchase" }
  | { readonly kind: "play"; readonly path: string }

export const chooseStream = (stream: Stream, index: number, player: PlayerChoice): StreamChoice => {
  if (stream.maintenance_mode) return { kind: "maintenance" }
  if (sourceFor(stream, player) === null) return { kind: "purchase" }
  return { kind: "play", path: `${playerPath(player)}?default=${index}` }
}
