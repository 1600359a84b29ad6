import { type ActorRefFrom, fromPromise } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { createClockActor } from "../adapters/time/clock.ts"
import type { notificationsMachine } from "../machines/shell/notificationsMachine.ts"
import { nowNextMachine } from "../machines/streams/nowNextMachine.ts"
import { streamRequestMachine } from "../machines/streams/streamRequestMachine.ts"
import { streamSelectionMachine } from "../machines/streams/streamSelectionMachine.ts"
import { notifyVia } from "./notifyVia.ts"

export interface StreamsDeps {
  readonly callApi: CallApi
  readonly storage: AppStorage
  readonly notifications: ActorRefFrom<typeof notificationsMachine>
  readonly navigate: (to: string) => void
}

/** Now and next from the guide, for the grid and the player page alike. */
export const createNowNext = (callApi: CallApi) =>
  nowNextMachine.provide({
    actors: {
      loadNowNext: fromPromise(({ signal }) => callApi("nowNext", { signal })),
      clock: createClockActor()
    }
  })

/** The streams grid, its player choice, what airs on each stream and the stream-request modal, wired to their adapters. */
export const createStreams = ({ callApi, storage, notifications, navigate }: StreamsDeps) => ({
  streamSelection: streamSelectionMachine.provide({
    actors: {
      readPlayerChoice: fromPromise(async () => storage.getPlayerChoice()),
      loadStreams: fromPromise(({ signal }) => callApi("streams", { signal })),
      nowNext: createNowNext(callApi),
      streamRequest: streamRequestMachine.provide({
        actors: { submitTicket: fromPromise(({ input, signal }) => callApi("createTicket", { body: input, signal })) },
        actions: { notify: notifyVia(notifications) }
      })
    },
    actions: {
      navigate: (_, { to }) => navigate(to),
      persistPlayerChoice: (_, { choice }) => storage.setPlayerChoice(choice)
    }
  })
})
