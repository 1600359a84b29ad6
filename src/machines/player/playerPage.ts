import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import { type PlayerChrome, playerChrome } from "../../domain/PlayerUi.ts"
import { playerPath, sourceFor } from "../../domain/playerChoice.ts"
import type { PlayerChoice, Stream } from "../../domain/Stream.ts"
import type { NowNextSnapshot } from "../streams/nowNextMachine.ts"
import type { PlayerEvent, PlayerInput } from "./playerEvents.ts"
import { mediaMetadataFor } from "./playerMetadata.ts"
import { type MediaKind, UNKNOWN_KIND } from "./playerTiming.ts"

// What the player page machine keeps, and the pure helpers its guards and actions use.

/** Over the picture while our origin's feed of the channel starts. */
export const CHANNEL_STARTING_MESSAGE = "Starting the channel…"
/** Over the picture while the channel's feed is away; the player tries again by itself. */
export const SIGNAL_LOST_MESSAGE = "The channel's signal was lost. Trying again…"
/** How long the player waits before asking for a channel that was not there again. */
export const CHANNEL_RETRY_MS = 3000

export interface PlayerMachineContext {
  readonly player: PlayerChoice
  readonly index: number
  /** the page's query string, `?default=` kept in step with the selection */
  readonly search: string
  readonly ui: number
  /** what of the player shows and works, decided once from `ui` */
  readonly chrome: PlayerChrome
  readonly streams: ReadonlyArray<Stream>
  readonly error: string | null
  /** what the playing source's timing says it is; reset with each new source */
  readonly kind: MediaKind
  /** the selected stream has played since it was chosen: a channel that goes away has lost its signal, not yet started */
  readonly played: boolean
  /** `?stream=`: the stream the page was opened for, by id; null once the list is in */
  readonly streamId: number | null
  /** `?from=`: the moment its first source starts at (epoch ms); null once that source is loading */
  readonly startAt: number | null
  readonly timeshiftHours: number
}

type Attach = Extract<PlayerEvent, { type: "media.attach" }>

/** Keeps `?default=` in step with the selection without a page load or a new history entry. */
export const syncQuery = (context: PlayerMachineContext) => ({ to: `${playerPath(context.player)}${context.search}`, replace: true })
export const currentStream = (context: PlayerMachineContext): Stream | undefined => context.streams[context.index]
/** What telemetry is told about the stream being watched (only ever one that exists). */
export const watchedOf = (context: PlayerMachineContext) => {
  const stream = currentStream(context)
  if (stream === undefined) throw new Error("only a listed stream can be watched")
  return { metadata: mediaMetadataFor(stream, context.player, context.ui, context.kind), source: sourceFor(stream, context.player) ?? "" }
}
export const attachOf = (event: PlayerEvent): Attach => {
  if (event.type !== "media.attach") throw new Error("the player's adapters start from media.attach")
  return event
}

export const initialContext = (input: PlayerInput): PlayerMachineContext => ({
  player: input.player,
  index: input.index,
  search: input.search ?? "",
  ui: input.ui ?? 0,
  chrome: playerChrome(input.ui ?? 0),
  streams: [],
  error: null,
  kind: UNKNOWN_KIND,
  played: false,
  streamId: input.streamId ?? null,
  startAt: input.startAt ?? null,
  timeshiftHours: input.timeshiftHours ?? 0
})

export const streamsOf = (answer: Answer<"streams">): ReadonlyArray<Stream> => dataOf(answer) ?? []

/**
 * The stream the page starts: the one asked for by id (`?stream=`), else by index, or the first
 * when an old link names none that exists.
 */
export const startIndex = (context: PlayerMachineContext, streams: ReadonlyArray<Stream>): number => {
  const byId = context.streamId === null ? -1 : streams.findIndex((stream) => stream.id === context.streamId)
  if (byId >= 0) return byId
  return context.index >= 0 && context.index < streams.length ? context.index : 0
}

/** The guide's answer as the now/next child holds it, once it has one. */
export const guideOf = (snapshot: NowNextSnapshot) =>
  snapshot.matches("showing") || snapshot.context.guide.length > 0 ? { guide: snapshot.context.guide, now: snapshot.context.now } : null
