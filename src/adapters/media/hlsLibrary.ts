import type Hls from "hls.js"
// hls.js's own minified light build (no alternate audio, subtitles, DRM, CMCD, content steering
// or interstitials: nothing the players use), served as it ships rather than bundled, so it can be
// downloaded as early as a player starts and run only once it has something to do.
import hlsUrl from "hls.js/dist/hls.light.min.mjs?url"

/** Downloads (and compiles) hls.js without running it; asking twice changes nothing. */
export const preloadHls = (): void => {
  if (typeof document === "undefined" || document.querySelector(`link[rel="modulepreload"][href="${hlsUrl}"]`) !== null) return
  const link = document.createElement("link")
  link.rel = "modulepreload"
  link.href = hlsUrl
  document.head.append(link)
}

export const loadHls = (): Promise<typeof Hls> =>
  import(/* @vite-ignore */ hlsUrl).then((module: { readonly default: typeof Hls }) => module.default)
