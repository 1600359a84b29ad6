import type { LogoPlacement, MediaMetadata, PlayerChrome } from "../../domain/PlayerUi.ts"
import { TV_PLAYER } from "../../domain/playerChoice.ts"
import type { PlayerChoice, Stream } from "../../domain/Stream.ts"
import type { PlayerSnapshot } from "./playerMachine.ts"
import { castTagsOf, mediaMetadataFor } from "./playerMetadata.ts"
import { CHANNEL_STARTING_MESSAGE, SIGNAL_LOST_MESSAGE } from "./playerPage.ts"
import { withoutMoment } from "./playerQuery.ts"

export type Unavailability = "maintenance" | "subscription" | null

export const selectIsReady = (snapshot: PlayerSnapshot): boolean => snapshot.matches("ready")
export const selectIsEmpty = (snapshot: PlayerSnapshot): boolean => snapshot.matches("empty")
export const selectStreams = (snapshot: PlayerSnapshot): ReadonlyArray<Stream> => snapshot.context.streams
export const selectIndex = (snapshot: PlayerSnapshot): number => snapshot.context.index
export const selectCurrentStream = (snapshot: PlayerSnapshot): Stream | undefined => snapshot.context.streams[snapshot.context.index]
/** Which player this page is: 1 TV, 2 low latency (SPEC §4). */
export const selectPlayerChoice = (snapshot: PlayerSnapshot): PlayerChoice => snapshot.context.player
export const selectListError = (snapshot: PlayerSnapshot): string | null => (snapshot.matches("failed") ? snapshot.context.error : null)
/** What of the player shows and works, decided once from the page's UI flags. */
export const selectChrome = (snapshot: PlayerSnapshot): PlayerChrome => snapshot.context.chrome
/** the page's query string as it stands, for links that keep it (SPEC §2: switching players) */
export const selectSearch = (snapshot: PlayerSnapshot): string => snapshot.context.search
/** The query the link to the other player carries: the low-latency player has no window, so no moment (`from`) to start at. */
export const selectSwitchSearch = (snapshot: PlayerSnapshot): string =>
  snapshot.context.player === TV_PLAYER ? withoutMoment(snapshot.context.search) : snapshot.context.search
export const selectUnavailability = (snapshot: PlayerSnapshot): Unavailability =>
  snapshot.matches({ ready: { attached: "maintenance" } })
    ? "maintenance"
    : snapshot.matches({ ready: { attached: "needsSubscription" } })
      ? "subscription"
      : null

/** Our origin refused the source (staff ended it, the account's limit): nothing plays until the viewer acts. */
export const selectIsStopped = (snapshot: PlayerSnapshot): boolean => snapshot.hasTag("stopped")

/** SPEC §3 media metadata of what is selected; live, seekable and duration follow the source's timing. */
export const selectMetadata = (snapshot: PlayerSnapshot): MediaMetadata | null => {
  const stream = selectCurrentStream(snapshot)
  return stream === undefined ? null : mediaMetadataFor(stream, snapshot.context.player, snapshot.context.ui, snapshot.context.kind)
}

/** The logo over the picture: metadata `logo` and `logo_href`, placed by the UI flags (SPEC §3). */
export interface PlayerLogo extends LogoPlacement {
  readonly src: string
  readonly href: string
  /** a logo at the bottom sits above the control bar, if there is one */
  readonly clearsControls: boolean
}

export const selectLogo = (snapshot: PlayerSnapshot): PlayerLogo | null => {
  const metadata = selectMetadata(snapshot)
  if (metadata === null || metadata.logo === "") return null
  const chrome = selectChrome(snapshot)
  return { src: metadata.logo, href: metadata.logo_href, ...chrome.logo, clearsControls: chrome.controls }
}

/** For `useSelector`: the same logo in the same place, whatever object holds it. */
export const sameLogo = (a: PlayerLogo | null, b: PlayerLogo | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.src === b.src &&
    a.href === b.href &&
    a.vertical === b.vertical &&
    a.horizontal === b.horizontal &&
    a.clearsControls === b.clearsControls)

/** DRAG_HANDLE (16): the seek bar's thumb shows a grip to drag. */
export const selectHasDragHandle = (snapshot: PlayerSnapshot): boolean => selectChrome(snapshot).dragHandle
/** The title header: under the player on the page, over it in fullscreen; NO_HEADER (4096) hides it in both. */
export const selectShowsHeader = (snapshot: PlayerSnapshot): boolean => selectChrome(snapshot).header
/** The title in that header; NO_TITLE (256) leaves it to screen readers. */
export const selectShowsTitle = (snapshot: PlayerSnapshot): boolean => selectChrome(snapshot).title

/** Casting is the TV player's, for streams whose tags say they support it. */
export const selectCastTags = (snapshot: PlayerSnapshot): { readonly airplay: boolean; readonly chromecast: boolean } =>
  snapshot.context.player === TV_PLAYER ? castTagsOf(selectCurrentStream(snapshot)) : { airplay: false, chromecast: false }

/** The child actors the views subscribe to; undefined until the video is attached. */
export const selectPlayback = (snapshot: PlayerSnapshot) => snapshot.children.playback
export const selectAccessActor = (snapshot: PlayerSnapshot) => snapshot.children.access
export const selectControls = (snapshot: PlayerSnapshot) => snapshot.children.controls
export const selectVolumeActor = (snapshot: PlayerSnapshot) => snapshot.children.volume
export const selectLiveEdge = (snapshot: PlayerSnapshot) => snapshot.children.liveEdge
export const selectScreen = (snapshot: PlayerSnapshot) => snapshot.children.screen
export const selectCasting = (snapshot: PlayerSnapshot) => snapshot.children.casting
/** "From the beginning or live?", and the notice for a moment outside the window; there from the moment the list is. */
export const selectStartOver = (snapshot: PlayerSnapshot) => snapshot.children.startOver
/** The programmes of the time-shift window, for the TV player's seek bar; there while a source plays. */
export const selectGuideWindow = (snapshot: PlayerSnapshot) => snapshot.children.guideWindow
/** What airs now and next on the listed streams; there from the moment the list is. */
export const selectNowNext = (snapshot: PlayerSnapshot) => snapshot.children.nowNext

/** What the player says over the picture while our origin has no playlist for the channel; null otherwise. */
export const selectChannelNotice = (snapshot: PlayerSnapshot): string | null =>
  snapshot.hasTag("channelUnavailable") ? (snapshot.context.played ? SIGNAL_LOST_MESSAGE : CHANNEL_STARTING_MESSAGE) : null
