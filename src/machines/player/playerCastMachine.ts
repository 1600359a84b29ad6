import { type AnyActorRef, assign, enqueueActions, type SnapshotFrom, setup } from "xstate"
import type { CastCommand, CastConnection, CastFact, CastTarget } from "../../domain/CastProtocol.ts"

export const CAST_ID = "cast"

export type CastEvent = CastFact | { readonly type: "cast.prompt"; readonly target: CastTarget }

const castSetup = setup({
  types: { events: {} as CastEvent, context: {} as { readonly devices: Readonly<Record<CastTarget, boolean>> } },
  guards: {
    // what the browser last said of each kind of device, whatever the connection did meanwhile
    hasDevice: ({ context }, params: { readonly target: CastTarget }) => context.devices[params.target],
    isAvailability: ({ event }, params: { readonly target: CastTarget; readonly available: boolean }) =>
      event.type === "cast.availability" && event.target === params.target && event.available === params.available,
    isConnection: ({ event }, params: { readonly target: CastTarget; readonly state: CastConnection }) =>
      event.type === "cast.connection" && event.target === params.target && event.state === params.state,
    isPrompt: ({ event }, params: { readonly target: CastTarget }) => event.type === "cast.prompt" && event.target === params.target
  },
  actions: {
    keepDevices: assign(({ context, event }) =>
      event.type === "cast.availability" ? { devices: { ...context.devices, [event.target]: event.available } } : {}
    ),
    showPicker: enqueueActions(({ system, enqueue }, params: { readonly target: CastTarget }) => {
      const cast = system.get(CAST_ID) as AnyActorRef | undefined
      if (cast !== undefined) enqueue.sendTo(cast, { type: "cast.showPicker", target: params.target } satisfies CastCommand)
    })
  }
})

/** One kind of device's button: its states and tags (`airplayAvailable`, `chromecastConnected`, …) read alike for both. */
const castButton = (target: CastTarget) => {
  const prompt = { guard: { type: "isPrompt", params: { target } }, actions: { type: "showPicker", params: { target } } } as const
  return castSetup.createStateConfig({
    initial: "unavailable",
    states: {
      unavailable: {
        on: { "cast.availability": { guard: { type: "isAvailability", params: { target, available: true } }, target: "available" } }
      },
      checkingDevices: {
        always: [{ guard: { type: "hasDevice", params: { target } }, target: "available" }, { target: "unavailable" }]
      },
      available: {
        tags: [`${target}Available`],
        on: {
          "cast.availability": { guard: { type: "isAvailability", params: { target, available: false } }, target: "unavailable" },
          "cast.prompt": prompt
        }
      },
      // the button stays, pressed: pressing it again opens the picker to stop or change device
      connecting: { tags: [`${target}Available`, `${target}Connecting`], on: { "cast.prompt": prompt } },
      connected: { tags: [`${target}Available`, `${target}Connected`], on: { "cast.prompt": prompt } }
    },
    on: {
      "cast.connection": [
        { guard: { type: "isConnection", params: { target, state: "connecting" } }, target: ".connecting" },
        { guard: { type: "isConnection", params: { target, state: "connected" } }, target: ".connected" },
        // a session that ends as the last device goes leaves no button behind
        { guard: { type: "isConnection", params: { target, state: "disconnected" } }, target: ".checkingDevices" }
      ]
    }
  })
}

/**
 * AirPlay and Chromecast (the Remote Playback API): a button appears only while the browser says
 * a device is there, and shows whether the picture is on it.
 */
export const playerCastMachine = castSetup.createMachine({
  id: "casting",
  type: "parallel",
  context: { devices: { airplay: false, chromecast: false } },
  states: {
    // a region of its own, so it hears every report whatever the others do with it
    devices: {
      initial: "tracking",
      states: { tracking: { on: { "cast.availability": { actions: "keepDevices" } } } }
    },
    airplay: castButton("airplay"),
    chromecast: castButton("chromecast")
  }
})

export type CastSnapshot = SnapshotFrom<typeof playerCastMachine>

export const selectCastAvailable = (snapshot: CastSnapshot | undefined, target: CastTarget): boolean =>
  snapshot?.hasTag(`${target}Available`) ?? false
export const selectCastConnection = (snapshot: CastSnapshot | undefined, target: CastTarget): CastConnection =>
  snapshot?.hasTag(`${target}Connected`) === true
    ? "connected"
    : snapshot?.hasTag(`${target}Connecting`) === true
      ? "connecting"
      : "disconnected"
