import type { MediaFact } from "../../domain/MediaProtocol.ts"
import type { PlayerChoice } from "../../domain/Stream.ts"
import type { TokenRejected } from "../../domain/TelemetryProtocol.ts"
import type { AccessOutcome } from "./playerAccessMachine.ts"
import type { CastEvent } from "./playerCastMachine.ts"
import type { ControlsEvent } from "./playerControlsMachine.ts"
import type { ScreenEvent } from "./playerScreenMachine.ts"
import type { StartOverAccepted } from "./playerStartOverMachine.ts"
import type { VolumeEvent } from "./playerVolumeMachine.ts"

type UiEvent<T> = Exclude<T, { type: `media.${string}` } | { type: `screen.${"resized" | "pointer"}` }>

/** What the view says (commands) and what the adapters report (facts), as the player page receives them. */
export type PlayerEvent =
  | MediaFact
  | ScreenEvent
  | CastEvent
  | UiEvent<ControlsEvent>
  | Exclude<VolumeEvent, { type: "screen.resized" | "media.autoMuted" }>
  /** The view hands over its video element and the box around it once they are in the document. */
  | { readonly type: "media.attach"; readonly element: HTMLVideoElement; readonly container: HTMLElement }
  | { readonly type: "media.detach" }
  | { readonly type: "player.select"; readonly index: number }
  | { readonly type: "player.retry" }
  | { readonly type: "player.togglePlay" }
  | { readonly type: "player.seekBy"; readonly seconds: number }
  | { readonly type: "player.seekTo"; readonly time: number }
  | { readonly type: "player.goLive" }
  /** a wall-clock moment of the window (a programme's start); `play` starts the picture there */
  | { readonly type: "player.seekToDate"; readonly at: number; readonly play?: boolean }
  /** behind live: play a little faster until live (again: stop) */
  | { readonly type: "player.catchUp" }
  /** the answers to "start from the beginning or watch live?" */
  | { readonly type: "startOver.begin" }
  | { readonly type: "startOver.watchLive" }
  | StartOverAccepted
  | { readonly type: "streams.retry" }
  /** over the account's stream limit: end its oldest stream elsewhere and play here */
  | { readonly type: "access.endOldest" }
  /** after a refusal: try the stream again */
  | { readonly type: "access.retry" }
  | AccessOutcome
  | TokenRejected

export interface PlayerInput {
  readonly player: PlayerChoice
  readonly index: number
  /** the page's query string as opened (`?default=2&ui=8`); its other parameters survive a switch */
  readonly search?: string
  /** UI flag mask (SPEC §3) */
  readonly ui?: number
  /** `?stream=`: the stream asked for by id, which wins over `default` */
  readonly streamId?: number
  /** `?from=`: the moment (epoch ms) the first stream starts at, when its window holds it */
  readonly startAt?: number
  /** the site's time-shift window, hours (0: none) */
  readonly timeshiftHours?: number
}
