interface FakeLevel {
  readonly height: number
  details?: {
    live: boolean
    edge: number
    fragmentStart: number
    fragments?: ReadonlyArray<{ start: number; duration: number; programDateTime: number | null }>
  }
}

/** Enough of hls.js to drive the adapter: it records calls and emits events on demand. */
export class FakeHls {
  static instances: Array<FakeHls> = []
  static supported = true
  static isSupported = () => FakeHls.supported
  /** the library's own loader, which a prefetching loader falls back to */
  static DefaultConfig = { loader: class {} }
  static Events = { MANIFEST_PARSED: "hlsManifestParsed", ERROR: "hlsError" }
  static ErrorTypes = {
    NETWORK_ERROR: "networkError",
    MEDIA_ERROR: "mediaError",
    MUX_ERROR: "muxError",
    KEY_SYSTEM_ERROR: "keySystemError",
    OTHER_ERROR: "otherError"
  }
  readonly listeners = new Map<string, Array<(event: string, data: unknown) => void>>()
  readonly calls: Array<string> = []
  source: string | undefined
  attached: unknown
  destroyed = false
  levels: Array<FakeLevel> = []
  currentLevel = -1
  loadLevel = 0
  startLevel = -1
  latency = 0
  liveSyncPosition: number | null = null
  readonly config: Record<string, unknown>
  constructor(config: Record<string, unknown>) {
    this.config = config
    FakeHls.instances.push(this)
  }
  on(event: string, listener: (event: string, data: unknown) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener])
  }
  loadSource(source: string) {
    this.source = source
    this.calls.push(`loadSource ${source}`)
  }
  attachMedia(element: unknown) {
    this.attached = element
  }
  /** where each startLoad asked to begin (-1: wherever the library thinks best) */
  readonly startPositions: Array<number> = []
  startLoad(position = -1) {
    this.calls.push("startLoad")
    this.startPositions.push(position)
  }
  recoverMediaError() {
    this.calls.push("recoverMediaError")
  }
  swapAudioCodec() {
    this.calls.push("swapAudioCodec")
  }
  destroy() {
    this.destroyed = true
  }
  emit(event: string, data: unknown = {}) {
    for (const listener of this.listeners.get(event) ?? []) listener(event, data)
  }
  /** the manifest arrived with these renditions */
  parsed(heights: ReadonlyArray<number> = [360]) {
    this.levels = heights.map((height) => ({ height }))
    this.emit(FakeHls.Events.MANIFEST_PARSED, { levels: this.levels })
  }
}
