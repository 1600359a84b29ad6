/** Google's Cast sender, with its framework API (the CSP allows its script folders, and nothing else of the host). */
export const CAST_SENDER_URL = "https://www.gstatic.com/cv/js/sender/v1/cast_sender.js?loadCastFramework=1"
/** Never waits longer than this for the sender to say whether it works here. */
const LOAD_TIMEOUT_MS = 10_000

type CastState = "NO_DEVICES_AVAILABLE" | "NOT_CONNECTED" | "CONNECTING" | "CONNECTED"

interface CastSession {
  loadMedia(request: unknown): Promise<unknown>
}

interface CastContext {
  setOptions(options: { readonly receiverApplicationId: string; readonly autoJoinPolicy: string }): void
  getCastState(): CastState
  addEventListener(type: string, listener: (event: { readonly castState: CastState }) => void): void
  removeEventListener(type: string, listener: (event: { readonly castState: CastState }) => void): void
  requestSession(): Promise<unknown>
  getCurrentSession(): CastSession | null
}

interface MediaInfo {
  streamType: string
  metadata: { title?: string }
}

/** The globals the sender script defines: the few parts of them the player uses. */
export interface CastGlobals {
  readonly cast: {
    readonly framework: {
      readonly CastContext: { getInstance(): CastContext }
      readonly CastContextEventType: { readonly CAST_STATE_CHANGED: string }
    }
  }
  readonly chrome: {
    readonly cast: {
      readonly AutoJoinPolicy: { readonly ORIGIN_SCOPED: string }
      readonly media: {
        readonly DEFAULT_MEDIA_RECEIVER_APP_ID: string
        readonly StreamType: { readonly LIVE: string }
        readonly MediaInfo: new (contentId: string, contentType: string) => MediaInfo
        readonly GenericMediaMetadata: new () => { title?: string }
        readonly LoadRequest: new (media: MediaInfo) => unknown
      }
    }
  }
}

export type CastFrameworkState = { readonly available: boolean; readonly connection: "connecting" | "connected" | "disconnected" }

/** What the cast actor needs of the sender: its state as it changes, a device picker, and loading a stream there. */
export interface CastFramework {
  /** reports the current state at once, then every change; returns the way to stop listening */
  readonly watch: (listener: (state: CastFrameworkState) => void) => () => void
  /** shows the browser's device picker; resolves true once a session is up */
  readonly requestSession: () => Promise<boolean>
  /** plays an HLS source (absolute URL) on the device of the current session */
  readonly play: (source: string, title: string) => Promise<void>
}

const stateOf = (castState: CastState): CastFrameworkState => ({
  available: castState !== "NO_DEVICES_AVAILABLE",
  connection: castState === "CONNECTED" ? "connected" : castState === "CONNECTING" ? "connecting" : "disconnected"
})

/** The sender framework behind the small interface above (the default receiver plays HLS itself). */
export const castFrameworkOf = ({ cast, chrome }: CastGlobals): CastFramework => {
  const context = cast.framework.CastContext.getInstance()
  context.setOptions({
    receiverApplicationId: chrome.cast.media.DEFAULT_MEDIA_RECEIVER_APP_ID,
    autoJoinPolicy: chrome.cast.AutoJoinPolicy.ORIGIN_SCOPED
  })
  const changed = cast.framework.CastContextEventType.CAST_STATE_CHANGED
  return {
    watch: (listener) => {
      const onChange = (event: { readonly castState: CastState }) => listener(stateOf(event.castState))
      context.addEventListener(changed, onChange)
      listener(stateOf(context.getCastState()))
      return () => context.removeEventListener(changed, onChange)
    },
    // the sender rejects with an error code when the picker is dismissed: no session, nothing to report
    requestSession: () =>
      context.requestSession().then(
        () => context.getCurrentSession() !== null,
        () => false
      ),
    play: async (source, title) => {
      const session = context.getCurrentSession()
      if (session === null) return
      const info = new chrome.cast.media.MediaInfo(source, "application/x-mpegurl")
      info.streamType = chrome.cast.media.StreamType.LIVE
      const metadata = new chrome.cast.media.GenericMediaMetadata()
      metadata.title = title
      info.metadata = metadata
      await session.loadMedia(new chrome.cast.media.LoadRequest(info))
    }
  }
}

type CastWindow = Window & Partial<CastGlobals> & { __onGCastApiAvailable?: (available: boolean) => void }

let loading: Promise<CastFramework | null> | undefined

/**
 * Loads the sender once, in the browsers that can use it (Chromium-based ones, which carry
 * `window.chrome`); null where it cannot be had: another browser, no network, a refusal, a time-out.
 */
export const loadCastFramework = (): Promise<CastFramework | null> => {
  loading ??= new Promise<CastFramework | null>((resolve) => {
    const target = window as CastWindow
    if (!("chrome" in window)) return resolve(null)
    const timer = setTimeout(() => resolve(null), LOAD_TIMEOUT_MS)
    target.__onGCastApiAvailable = (available) => {
      clearTimeout(timer)
      const { cast, chrome } = target
      resolve(available && cast !== undefined && chrome !== undefined ? castFrameworkOf({ cast, chrome }) : null)
    }
    const script = document.createElement("script")
    script.src = CAST_SENDER_URL
    script.async = true
    script.onerror = () => {
      clearTimeout(timer)
      resolve(null)
    }
    document.head.append(script)
  }).catch(() => null)
  return loading
}
