import type { HlsConfig, Level } from "hls.js"

/**
 * hls.js settings per player. Both start on the first fragment as soon as the manifest is in
 * (prefetch, no bandwidth probe, transmuxing on the main thread: the worker would re-parse the
 * whole library before the first segment could be handled) and keep a short buffer.
 */
const shared: Partial<HlsConfig> = {
  enableWorker: false,
  startFragPrefetch: true,
  testBandwidth: false,
  startOnSegmentBoundary: true,
  backBufferLength: 30,
  // our own recovery takes over after these, so keep the library's retries short
  manifestLoadPolicy: {
    default: {
      maxTimeToFirstByteMs: 8000,
      maxLoadTimeMs: 10000,
      timeoutRetry: { maxNumRetry: 1, retryDelayMs: 0, maxRetryDelayMs: 0 },
      errorRetry: { maxNumRetry: 1, retryDelayMs: 500, maxRetryDelayMs: 1000 }
    }
  }
}

export const tvConfig = (): Partial<HlsConfig> => ({
  ...shared,
  lowLatencyMode: false,
  maxBufferLength: 10
})

/**
 * The low-latency player (SPEC §9: 500 ms buffering, 1080p first). It plays two 0.4 s parts
 * behind the newest one (the smallest PART-HOLD-BACK LL-HLS allows a server), so between 0.4 and
 * 0.8 s — about the spec's half second — is buffered ahead of the playhead, rather than the
 * origin's more cautious three parts. When it falls behind, hls.js speeds playback up to 1.25×.
 */
export const lowLatencyConfig = (): Partial<HlsConfig> => ({
  ...shared,
  lowLatencyMode: true,
  maxLiveSyncPlaybackRate: 1.25,
  liveSyncDuration: 0.8,
  // a stall raises the target by this much; a small step keeps the distance from creeping up
  liveSyncOnStallIncrease: 0.2,
  maxBufferLength: 4
})

/** Index of the rendition whose height is closest to `height` (ties go to the higher one). */
export const levelClosestTo = (levels: ReadonlyArray<Pick<Level, "height">>, height: number): number => {
  let best = -1
  let bestDistance = Number.POSITIVE_INFINITY
  levels.forEach((level, index) => {
    const distance = Math.abs(level.height - height)
    if (distance < bestDistance || (distance === bestDistance && level.height > (levels[best]?.height ?? 0))) {
      best = index
      bestDistance = distance
    }
  })
  return best
}
