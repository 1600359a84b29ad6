import { fromCallback } from "xstate"
import type { CastCommand, CastInput } from "../../domain/CastProtocol.ts"
import { type CastFramework, loadCastFramework } from "./castFramework.ts"

/** Safari's AirPlay extensions on the video element. */
type AirPlayVideo = HTMLVideoElement & {
  readonly webkitShowPlaybackTargetPicker?: () => void
  readonly webkitCurrentPlaybackTargetIsWireless?: boolean
}
type AvailabilityEvent = Event & { readonly availability?: string }

export interface CastDeps {
  /** Safari's AirPlay availability event exists: the only sign the browser can AirPlay at all */
  readonly hasAirPlay: () => boolean
  /** Google's Cast sender, where the browser can use it; null where it cannot */
  readonly loadCastFramework?: () => Promise<CastFramework | null>
  /** runs work the first frame does not need once the page has a moment */
  readonly whenIdle?: (work: () => void) => void
}

export const browserCastDeps: CastDeps = {
  hasAirPlay: () => "WebKitPlaybackTargetAvailabilityEvent" in globalThis,
  loadCastFramework,
  whenIdle: (work) =>
    typeof requestIdleCallback === "function" ? void requestIdleCallback(work, { timeout: 3000 }) : void setTimeout(work, 1000)
}

/** The page's player and its video; a player that cannot cast (the low-latency one) asks nothing of the browser. */
export type CastActorInput = CastInput & { readonly canCast?: boolean }

const absolute = (source: string): string => new URL(source, globalThis.location?.href).href

/**
 * AirPlay (Safari's playback-target events, with the native HLS source the TV player uses there)
 * and Chromecast: through Google's Cast sender where the browser can use it (Chromium, whose
 * Remote Playback refuses a player fed through MSE), else through the Remote Playback API.
 * Reports availability and connection; shows the browser's device picker on request (inside the
 * click that asked, as the browsers require); a connected Cast device is sent the current stream,
 * and the picture here pauses while it plays there. A player that cannot cast neither loads
 * Google's sender nor watches for devices.
 */
export const createCastActor = (deps: CastDeps = browserCastDeps) =>
  fromCallback<CastCommand, CastActorInput>(({ input, sendBack, receive }) => {
    if (input.canCast === false) return
    const video = input.element as AirPlayVideo
    const cleanups: Array<() => void> = []
    const listen = (target: EventTarget, name: string, listener: (event: Event) => void): void => {
      target.addEventListener(name, listener)
      cleanups.push(() => target.removeEventListener(name, listener))
    }

    if (deps.hasAirPlay() && typeof video.webkitShowPlaybackTargetPicker === "function") {
      listen(video, "webkitplaybacktargetavailabilitychanged", (event) =>
        sendBack({ type: "cast.availability", target: "airplay", available: (event as AvailabilityEvent).availability === "available" })
      )
      listen(video, "webkitcurrentplaybacktargetiswirelesschanged", () =>
        sendBack({
          type: "cast.connection",
          target: "airplay",
          state: video.webkitCurrentPlaybackTargetIsWireless === true ? "connected" : "disconnected"
        })
      )
    }

    let stopped = false
    let framework: CastFramework | null = null
    let current: { readonly source: string; readonly title: string } | null = null
    let casting = false
    const playThere = (): void => {
      if (framework !== null && current !== null) void framework.play(current.source, current.title).catch(() => undefined)
    }
    if (deps.loadCastFramework !== undefined) {
      const load = deps.loadCastFramework
      ;(deps.whenIdle ?? ((work) => work()))(() => {
        void load().then((found) => {
          if (stopped || found === null) return
          framework = found
          cleanups.push(
            found.watch(({ available, connection }) => {
              sendBack({ type: "cast.availability", target: "chromecast", available })
              sendBack({ type: "cast.connection", target: "chromecast", state: connection })
              const nowCasting = connection === "connected"
              if (nowCasting && !casting) {
                video.pause()
                playThere()
              }
              casting = nowCasting
            })
          )
        })
      })
    }

    const remote = (video as Partial<Pick<HTMLVideoElement, "remote">>).remote
    if (remote !== undefined && typeof remote.watchAvailability === "function") {
      remote
        .watchAvailability((available) => {
          // with the Cast sender in charge, the element's own (MSE-refusing) answer is beside the point
          if (!stopped && framework === null) sendBack({ type: "cast.availability", target: "chromecast", available })
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
      if (command.type === "cast.media") {
        current = { source: absolute(command.source), title: command.title }
        if (casting) playThere()
      } else if (command.target === "airplay") video.webkitShowPlaybackTargetPicker?.()
      else if (framework !== null) void framework.requestSession()
      else remote?.prompt().catch(() => undefined)
    })
    return () => {
      stopped = true
      for (const cleanup of cleanups) cleanup()
    }
  })
