import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext, LoaderStats } from "hls.js"
import type { MediaPrefetch, Prefetched } from "./mediaPrefetch.ts"

type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>

const freshStats = (): LoaderStats => ({
  aborted: false,
  loaded: 0,
  retry: 0,
  total: 0,
  chunkCount: 0,
  bwEstimate: 0,
  loading: { start: 0, first: 0, end: 0 },
  parsing: { start: 0, end: 0 },
  buffering: { start: 0, first: 0, end: 0 }
})

const fits = (context: LoaderContext, found: Prefetched): boolean =>
  context.responseType === "arraybuffer" ? found.data instanceof ArrayBuffer : typeof found.data === "string"

const sizeOf = (data: string | ArrayBuffer): number => (typeof data === "string" ? data.length : data.byteLength)

/**
 * An hls.js loader that answers from a prefetch where it can and hands everything else to the
 * library's own loader. Each prefetched response is served once, as if it had just been loaded.
 */
export const prefetchingLoader = (Fallback: LoaderClass, prefetch: MediaPrefetch): LoaderClass =>
  class PrefetchingLoader implements Loader<LoaderContext> {
    private readonly fallback: Loader<LoaderContext>
    // set while this loader serves a prefetched answer instead of the fallback
    private served: { stats: LoaderStats; context: LoaderContext; callbacks: LoaderCallbacks<LoaderContext> } | null = null

    constructor(config: HlsConfig) {
      this.fallback = new Fallback(config)
    }

    get stats(): LoaderStats {
      return this.served?.stats ?? this.fallback.stats
    }

    get context(): LoaderContext | null {
      return this.served?.context ?? this.fallback.context
    }

    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
      this.served = null
      // hls.js marks "no byte range" with a zero end; a ranged request is never prefetched
      const ahead = context.rangeEnd ? undefined : prefetch.take(context.url)
      if (ahead === undefined) {
        this.fallback.load(context, config, callbacks)
        return
      }
      const served = { stats: freshStats(), context, callbacks }
      this.served = served
      void ahead.then((found) => {
        if (served.stats.aborted || this.served !== served) return
        if (found === null || !fits(context, found)) {
          this.served = null
          this.fallback.load(context, config, callbacks)
          return
        }
        const { stats } = served
        stats.loading = { ...found.timing }
        stats.loaded = stats.total = sizeOf(found.data)
        stats.chunkCount = 1
        callbacks.onSuccess({ url: found.url, data: found.data, code: 200 }, stats, context, null)
      })
    }

    abort(): void {
      const served = this.served
      if (served === null) {
        this.fallback.abort()
        return
      }
      if (served.stats.aborted) return
      served.stats.aborted = true
      served.callbacks.onAbort?.(served.stats, served.context, null)
    }

    destroy(): void {
      if (this.served !== null) this.served.stats.aborted = true
      this.fallback.destroy()
    }

    getCacheAge(): number | null {
      return this.served === null ? (this.fallback.getCacheAge?.() ?? null) : null
    }

    getResponseHeader(name: string): string | null {
      return this.served === null ? (this.fallback.getResponseHeader?.(name) ?? null) : null
    }
  }
