import type { MediaMetadata } from "../../domain/PlayerUi.ts"
import { TV_PLAYER } from "../../domain/playerChoice.ts"
import { type PlayerChoice, parseTags, type Stream } from "../../domain/Stream.ts"
import { SITE_GROUP_ID } from "../telemetry/playerTelemetry.ts"
import type { MediaKind } from "./playerTiming.ts"

/** The site's own mark, for streams without an image of their own. */
export const SITE_LOGO = "/favicon.svg"
/** Where the logo leads: the site's home, with every channel on it. */
export const SITE_HOME = "/"

/**
 * The media metadata of SPEC §3 for a stream of the list. The stream's image serves as its logo.
 * Streams carry no description of their own, so the operator's notes and labels among the
 * player's tags stand in for one. Whether it is live, seekable and how long it is comes from the
 * source's timing (`kind`).
 */
export const mediaMetadataFor = (stream: Stream, player: PlayerChoice, ui: number, kind: MediaKind): MediaMetadata => {
  const tags = parseTags(player === TV_PLAYER ? stream.tags : stream.tags_sldp)
  const description = tags
    .filter((tag) => tag.kind === "info" || tag.kind === "warning" || tag.kind === "label")
    .map((tag) => tag.text)
    .join(" · ")
  return {
    media_id: String(stream.id),
    site_id: "web",
    sitegroup_id: SITE_GROUP_ID,
    player_id: player === TV_PLAYER ? "tv" : "lls",
    category_id: "",
    title: stream.title,
    description,
    logo: stream.image_location === "" ? SITE_LOGO : stream.image_location,
    logo_href: SITE_HOME,
    duration: kind.duration,
    live: kind.live,
    seekable: kind.seekable,
    ui
  }
}

/** Which casting a stream's tags declare for the TV player (SPEC §3 icon tags). */
export const castTagsOf = (stream: Stream | undefined): { readonly airplay: boolean; readonly chromecast: boolean } => {
  const kinds = new Set(parseTags(stream?.tags ?? "").map((tag) => tag.kind))
  return { airplay: kinds.has("airplay"), chromecast: kinds.has("chromecast") }
}

/** Parses `?ui=` (the embedder's flag mask); anything but a non-negative integer means no flags. */
export const parseUiMask = (raw: string | null): number => {
  const mask = Number(raw ?? "0")
  return Number.isSafeInteger(mask) && mask >= 0 ? mask : 0
}
