import { type AnyActorRef, assign, enqueueActions, type SnapshotFrom, setup } from "xstate"
import type { CastCommand, CastConnection, CastFact, CastTarget } from "../../domain/CastProtocol.ts"

export const CAST_ID = "cast"

export type CastEvent = CastFact | { readonly type: "cast.prompt"; readonly target: CastTarget }

/**
 * AirPlay and Chromecast (the Remote Playback API): a button appears only while the browser says
 * a device is there, and shows whether the picture is on it.
 */
export const playerCastMachine = setup({
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
}).createMachine({
  id: "casting",
  type: "parallel",
  context: { devices: { airplay: false, chromecast: false } },
  states: {
    // a region of its own, so it hears every report whatever the others do with it
    devices: {
      initial: "tracking",
      states: { tracking: { on: { "cast.availability": { actions: "keepDevices" } } } }
    },
    airplay: {
      initial: "unavailable",
      states: {
        unavailable: {
          on: {
            "cast.availability": { guard: { type: "isAvailability", params: { target: "airplay", available: true } }, target: "available" }
          }
        },
        checkingDevices: {
          always: [{ guard: { type: "hasDevice", params: { target: "airplay" } }, target: "available" }, { target: "unavailable" }]
        },
        available: {
          tags: ["airplayAvailable"],
          on: {
            "cast.availability": {
              guard: { type: "isAvailability", params: { target: "airplay", available: false } },
              target: "unavailable"
            },
            "cast.prompt": {
              guard: { type: "isPrompt", params: { target: "airplay" } },
              actions: { type: "showPicker", params: { target: "airplay" } }
            }
          }
        },
        // the button stays, pressed: pressing it again opens the picker to stop or change device
        connecting: {
          tags: ["airplayAvailable", "airplayConnecting"],
          on: {
            "cast.prompt": {
              guard: { type: "isPrompt", params: { target: "airplay" } },
              actions: { type: "showPicker", params: { target: "airplay" } }
            }
          }
        },
        connected: {
          tags: ["airplayAvailable", "airplayConnected"],
          on: {
            "cast.prompt": {
              guard: { type: "isPrompt", params: { target: "airplay" } },
              actions: { type: "showPicker", params: { target: "airplay" } }
            }
          }
        }
      },
      on: {
        "cast.connection": [
          { guard: { type: "isConnection", params: { target: "airplay", state: "connecting" } }, target: ".connecting" },
          { guard: { type: "isConnection", params: { target: "airplay", state: "connected" } }, target: ".connected" },
          // a session that ends as the last device goes leaves no button behind
          {
            guard: { type: "isConnection", params: { target: "airplay", state: "disconnected" } },
            target: ".checkingDevices"
          }
        ]
      }
    },
    chromecast: {
      initial: "unavailable",
      states: {
        unavailable: {
          on: {
            "cast.availability": {
              guard: { type: "isAvailability", params: { target: "chromecast", available: true } },
              target: "available"
            }
          }
        },
        checkingDevices: {
          always: [{ guard: { type: "hasDevice", params: { target: "chromecast" } }, target: "available" }, { target: "unavailable" }]
        },
        available: {
          tags: ["chromecastAvailable"],
          on: {
            "cast.availability": {
              guard: { type: "isAvailability", params: { target: "chromecast", available: false } },
              target: "unavailable"
            },
            "cast.prompt": {
              guard: { type: "isPrompt", params: { target: "chromecast" } },
              actions: { type: "showPicker", params: { target: "chromecast" } }
            }
          }
        },
        // the button stays, pressed: pressing it again opens the picker to stop or change device
        connecting: {
          tags: ["chromecastAvailable", "chromecastConnecting"],
          on: {
            "cast.prompt": {
              guard: { type: "isPrompt", params: { target: "chromecast" } },
              actions: { type: "showPicker", params: { target: "chromecast" } }
            }
          }
        },
        connected: {
          tags: ["chromecastAvailable", "chromecastConnected"],
          on: {
            "cast.prompt": {
              guard: { type: "isPrompt", params: { target: "chromecast" } },
              actions: { type: "showPicker", params: { target: "chromecast" } }
            }
          }
        }
      },
      on: {
        "cast.connection": [
          { guard: { type: "isConnection", params: { target: "chromecast", state: "connecting" } }, target: ".connecting" },
          { guard: { type: "isConnection", params: { target: "chromecast", state: "connected" } }, target: ".connected" },
          // a session that ends as the last device goes leaves no button behind
          {
            guard: { type: "isConnection", params: { target: "chromecast", state: "disconnected" } },
            target: ".checkingDevices"
          }
        ]
      }
    }
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
