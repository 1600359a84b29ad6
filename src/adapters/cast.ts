import { fromCallback } from "xstate"

export type CastTarget = "airplay" | "chromecast"

export type CastCommand = { readonly type: "cast.showPicker"; readonly target: CastTarget }

export type CastFact =
  | { readonly type: "cast.availability"; readonly target: CastTarget; readonly available: boolean }
  | { readonly type: "cast.connection"; readonly target: CastTarget; readonly state: "connecting" | "connected" | "disconnected" }

export interface CastInput {
  readonly element: HTMLVideoElement
}

/** Safari's AirPlay extensions on the video element. */
type AirPlayVideo = HTMLVideoElement & {
  readonly webkitShowPlaybackTargetPicker?: () => void
  readonly webkitCurrentPlaybackTargetIsWireless?: boolean
}
type AvailabilityEvent = Event & { readonly availability?: string }

export interface CastDeps {
  /** Safari's AirPlay availability event exists: the only sign the browser can AirPlay at all */
  readonly hasAirPlay: () => boolean
}

export const browserCastDeps: CastDeps = {
  hasAirPlay: () => "WebKitPlaybackTargetAvailabilityEvent" in globalThis
}

/**
 * AirPlay (Safari's playback-target events, with the native HLS source the TV player uses there)
 * and Chromecast through the Remote Playback API. Reports availability and connection; shows the
 * browser's device picker on request (inside the click that asked, as the browsers require).
 */
export const createCastActor = (deps: CastDeps = browserCastDeps) =>
  fromCallback<CastCommand, CastInput>(({ input, sendBack, receive }) => {
    const video = input.element as AirPlayVideo
    const cleanups: Array<() => void> = []
    const listen = (target: EventTarget, name: string, listener: (event: Event) => void): void => {
      target.addEventListener(name, listener)
      cleanups.push(() => target.removeEventListener(name, listener))
    }

    if (deps.hasAirPlay() && typeof video.webkitShowPlaybackTargetPicker === "function") {
      listen(video, "webkitplaybacktargetavailabilitychanged", (event) =>
        sendBack({ type: "cast.availability", target: "airplay", available: (event as AvailabilityEvent).availability === "available" }))
      listen(video, "webkitcurrentplaybacktargetiswirelesschanged", () =>
        sendBack({ type: "cast.connection", target: "airplay", state: video.webkitCurrentPlaybackTargetIsWireless === true ? "connected" : "disconnected" }))
    }

    const remote = (video as Partial<Pick<HTMLVideoElement, "remote">>).remote
    let stopped = false
    if (remote !== undefined && typeof remote.watchAvailability === "function") {
      remote
        .watchAvailability((available) => {
          if (!stopped) sendBack({ type: "cast.availability", target: "chromecast", available })
        })
        .then(
          (id) => cleanups.push(() => void remote.cancelWatchAvailability(id).catch(() => undefined)),
          // NotSupportedError: this source (e.g. MSE) or browser cannot be sent to a device
          () => undefined
        )
      listen(remote, "connecting", () => sendBack({ type: "cast.connection", target: "chromecast", state: "connecting" }))
      listen(remote, "connect", () => sendBack({ type: "cast.connection", target: "chromecast", state: "connected" }))
      listen(remote, "disconnect", () => sendBack({ type: "cast.connection", target: "chromecast", state: "disconnected" }))
    }

    receive((command) => {
      if (command.target === "airplay") video.webkitShowPlaybackTargetPicker?.()
      else remote?.prompt().catch(() => undefined)
    })
    return () => {
      stopped = true
      for (const cleanup of cleanups) cleanup()
    }
  })
