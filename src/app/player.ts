import { fromPromise } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import type { MediaDeps } from "../adapters/media/browserMedia.ts"
import { createMediaActor } from "../adapters/media/hlsMedia.ts"
import { createVideoElement } from "../adapters/media/videoElement.ts"
import type { WarmPlayer } from "../adapters/media/warmPlayer.ts"
import { createCastActor } from "../adapters/screen/cast.ts"
import { createFullscreenActor } from "../adapters/screen/fullscreen.ts"
import { createPipActor } from "../adapters/screen/pip.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import type { VolumeStore } from "../adapters/storage/volumeStore.ts"
import type { Answer } from "../domain/contract/answer.ts"
import { playerPageOf } from "../domain/playerRoute.ts"
import { playerAccessMachine } from "../machines/player/playerAccessMachine.ts"
import { playerGuideWindowMachine } from "../machines/player/playerGuideWindowMachine.ts"
import { playerMachine } from "../machines/player/playerMachine.ts"
import { playerStartOverMachine } from "../machines/player/playerStartOverMachine.ts"
import { playerVolumeMachine } from "../machines/player/playerVolumeMachine.ts"
import type { playerTelemetryMachine } from "../machines/telemetry/playerTelemetryMachine.ts"
import { createNowNext } from "./streams.ts"

export interface PlayerDeps {
  readonly callApi: CallApi
  /** where the answers to "from the beginning or live?" are kept */
  readonly storage: AppStorage
  readonly media: MediaDeps
  readonly volumeStore: VolumeStore
  readonly navigate: (to: string, replace: boolean) => void
  /** the telemetry machine joined to its adapters */
  readonly telemetry: typeof playerTelemetryMachine
  /** where the page was opened */
  readonly location: { readonly pathname: string }
  readonly signedIn: boolean
  /** a player page's stream, already started before the app (see main.tsx) */
  readonly warm?: WarmPlayer | undefined
}

/** The player page machine joined to its adapters, and the way its video gets onto the page. */
export const createPlayer = ({ callApi, storage, media, volumeStore, navigate, telemetry, location, signedIn, warm }: PlayerDeps) => {
  // Opened on a player page with a session: the streams list and hls.js load alongside the
  // app's own start-up calls instead of after them.
  let early: Promise<Answer<"streams">> | undefined
  if (playerPageOf(location.pathname, "") !== null && signedIn) {
    early = callApi("streams")
    media.preloadHls?.()
  }
  const player = playerMachine.provide({
    actors: {
      // only the page's first load may use the early answer; a retry asks again
      loadStreams: fromPromise<Answer<"streams">>(({ signal }) => {
        // a player page reached from inside the app fetches hls.js alongside its list, not after it
        media.preloadHls?.()
        const answer = early ?? callApi("streams", { signal })
        early = undefined
        return answer
      }),
      media: createMediaActor(warm === undefined ? media : { ...media, adopt: warm.adopt }),
      fullscreen: createFullscreenActor(),
      pip: createPipActor(),
      cast: createCastActor(),
      telemetry,
      // a stream our origin refused: why, and what the viewer can do about it
      access: playerAccessMachine.provide({
        actors: {
          checkAccess: fromPromise(({ input, signal }) => callApi("streamAccess", { body: { grant: input.grant }, signal })),
          endStream: fromPromise(({ input, signal }) => callApi("endStream", { body: { id: input.id }, signal })),
          renewStreams: fromPromise(({ signal }) => callApi("streams", { signal }))
        }
      }),
      // the same guide the grid shows, for the side list and the title area
      nowNext: createNowNext(callApi),
      // the TV player's seek bar marks the programmes of the stream's time-shift window
      guideWindow: playerGuideWindowMachine.provide({
        actors: {
          loadWindow: fromPromise(({ input, signal }) => callApi("guideWindow", { params: { streamId: String(input.streamId) }, signal }))
        }
      }),
      // "from the beginning or live?" is asked once per programme: the browser keeps the answers
      startOver: playerStartOverMachine.provide({
        actors: { recall: fromPromise(async ({ input }) => storage.getStartOverChoice(input)) },
        actions: { remember: (_, { key, choice }) => storage.setStartOverChoice(key, choice) }
      }),
      volume: playerVolumeMachine.provide({
        actors: { restoreVolume: fromPromise(async () => volumeStore.read()) },
        actions: { persistVolume: (_, setting) => volumeStore.write(setting) }
      })
    },
    actions: { navigate: (_, { to, replace }) => navigate(to, replace) }
  })
  return {
    player,
    /** puts the player's video element into its frame (one already playing, when the page was warm-started) */
    placeVideo: (container: HTMLElement): HTMLVideoElement => warm?.placeVideo(container) ?? createVideoElement(container)
  }
}
