// The cast adapter's protocol (AirPlay and Chromecast), shared by the player machine and the adapter.

export type CastTarget = "airplay" | "chromecast"
export type CastConnection = "connecting" | "connected" | "disconnected"

export type CastCommand =
  | { readonly type: "cast.showPicker"; readonly target: CastTarget }
  /** what a device should play once one is connected (the current stream) */
  | { readonly type: "cast.media"; readonly source: string; readonly title: string }

export type CastFact =
  | { readonly type: "cast.availability"; readonly target: CastTarget; readonly available: boolean }
  | { readonly type: "cast.connection"; readonly target: CastTarget; readonly state: CastConnection }

export interface CastInput {
  readonly element: HTMLVideoElement
}
