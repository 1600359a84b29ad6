import type { MediaMetadata } from "../domain/PlayerUi.ts"
import { TV_PLAYER, type Stream } from "../domain/Stream.ts"
import type { PlayerSnapshot } from "./playerMachine.ts"
import { castTagsOf, mediaMetadataFor } from "./playerMetadata.ts"

export type Unavailability = "maintenance" | "subscription" | null

export const selectIsReady = (snapshot: PlayerSnapshot): boolean => snapshot.matches("ready")
export const selectIsAttached = (snapshot: PlayerSnapshot): boolean => snapshot.matches({ ready: "attached" })
export const selectIsEmpty = (snapshot: PlayerSnapshot): boolean => snapshot.matches("empty")
export const selectStreams = (snapshot: PlayerSnapshot): ReadonlyArray<Stream> => snapshot.context.streams
export const selectIndex = (snapshot: PlayerSnapshot): number => snapshot.context.index
export const selectCurrentStream = (snapshot: PlayerSnapshot): Stream | undefined => snapshot.context.streams[snapshot.context.index]
export const selectIsListLoading = (snapshot: PlayerSnapshot): boolean => snapshot.hasTag("listLoading")
export const selectListError = (snapshot: PlayerSnapshot): string | null =>
  snapshot.matches("failed") ? snapshot.context.error : null
export const selectUi = (snapshot: PlayerSnapshot): number => snapshot.context.ui
/** the page's query string as it stands, for links that keep it (SPEC §2: switching players) */
export const selectSearch = (snapshot: PlayerSnapshot): string => snapshot.context.search
export const selectIsWatching = (snapshot: PlayerSnapshot): boolean => snapshot.matches({ ready: { attached: "watching" } })
export const selectUnavailability = (snapshot: PlayerSnapshot): Unavailability =>
  snapshot.matches({ ready: { attached: "maintenance" } })
    ? "maintenance"
    : snapshot.matches({ ready: { attached: "needsSubscription" } })
      ? "subscription"
      : null

/** SPEC §3 media metadata of what is selected; live, seekable and duration follow the source's timing. */
export const selectMetadata = (snapshot: PlayerSnapshot): MediaMetadata | null => {
  const stream = selectCurrentStream(snapshot)
  return stream === undefined ? null : mediaMetadataFor(stream, snapshot.context.player, snapshot.context.ui, snapshot.context.kind)
}

/** Casting is the TV player's, for streams whose tags say they support it. */
export const selectCastTags = (snapshot: PlayerSnapshot): { readonly airplay: boolean; readonly chromecast: boolean } =>
  snapshot.context.player === TV_PLAYER ? castTagsOf(selectCurrentStream(snapshot)) : { airplay: false, chromecast: false }

/** The child actors the views subscribe to; undefined until the video is attached. */
export const selectPlayback = (snapshot: PlayerSnapshot) => snapshot.children.playback
export const selectControls = (snapshot: PlayerSnapshot) => snapshot.children.controls
export const selectVolumeActor = (snapshot: PlayerSnapshot) => snapshot.children.volume
export const selectLiveEdge = (snapshot: PlayerSnapshot) => snapshot.children.liveEdge
export const selectScreen = (snapshot: PlayerSnapshot) => snapshot.children.screen
export const selectCasting = (snapshot: PlayerSnapshot) => snapshot.children.casting
