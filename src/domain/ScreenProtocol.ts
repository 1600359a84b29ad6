// The protocols of the player's screen adapters: fullscreen (with the player's size and pointer)
// and picture-in-picture. The player machine and the adapters both import them from here.

export type FullscreenCommand = { readonly type: "fullscreen.enter" } | { readonly type: "fullscreen.exit" }

/** Facts from the fullscreen adapter: fullscreen itself, the player's width and its pointer. */
export type FullscreenFact =
  | { readonly type: "screen.fullscreenAvailable"; readonly available: boolean }
  | { readonly type: "screen.fullscreenChanged"; readonly active: boolean }
  | { readonly type: "screen.resized"; readonly width: number }
  | { readonly type: "screen.pointer"; readonly touch: boolean }

export interface FullscreenInput {
  readonly element: HTMLVideoElement
  /** the player's box: fullscreen takes all of it, so the player's own controls stay */
  readonly container: HTMLElement
}

export type PipCommand = { readonly type: "pip.enter" } | { readonly type: "pip.exit" }

export type PipFact =
  | { readonly type: "screen.pipAvailable"; readonly available: boolean }
  | { readonly type: "screen.pipChanged"; readonly active: boolean }

export interface PipInput {
  readonly element: HTMLVideoElement
}

export type ScreenFact = FullscreenFact | PipFact
