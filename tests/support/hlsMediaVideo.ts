import type Hls from "hls.js"
import { vi } from "vitest"
import { createActor, sendTo, setup } from "xstate"
import type { MediaDeps } from "../../src/adapters/media/browserMedia.ts"
import { createMediaActor } from "../../src/adapters/media/hlsMedia.ts"
import type { MediaCommand, MediaFact } from "../../src/domain/MediaProtocol.ts"
import { FakeHls } from "./FakeHls.ts"

/** A video element's events and the few properties the adapter touches. */
export class FakeVideo extends EventTarget {
  muted = false
  volume = 1
  autoplay = false
  playsInline = false
  paused = true
  readyState = 0
  currentTime = 0
  duration = Number.NaN
  seekable = { length: 0, start: (_index: number) => 0, end: (_index: number) => 0 }
  src = ""
  error: { code: number } | null = null
  /** set to refuse sound the way browsers do without a gesture */
  refuseSound = false
  play = vi.fn(async () => {
    if (this.refuseSound && !this.muted) throw new DOMException("play() needs a gesture", "NotAllowedError")
    this.paused = false
  })
  pause = vi.fn(() => {
    this.paused = true
  })
  load = vi.fn()
  canPlayType = vi.fn(() => "maybe")
  getAttribute = (name: string) => (name === "src" && this.src !== "" ? this.src : null)
  removeAttribute = () => {
    this.src = ""
  }
}

export const deps = (overrides: Partial<MediaDeps> = {}): MediaDeps => ({
  loadHls: async () => FakeHls as unknown as typeof Hls,
  hasMse: () => true,
  pageProtocol: () => "http:",
  isOnline: () => true,
  prefersNative: () => false,
  now: () => 1234.4,
  ...overrides
})

/** Runs the adapter under a parent that forwards commands and collects the facts. */
export const run = (mediaDeps: MediaDeps, { lowLatency = true, video = new FakeVideo() } = {}) => {
  FakeHls.instances = []
  const facts: Array<MediaFact> = []
  const parent = createActor(
    setup({
      types: { events: {} as MediaFact | { type: "command"; command: MediaCommand } },
      actors: { media: createMediaActor(mediaDeps) }
    }).createMachine({
      invoke: { id: "media", src: "media", input: { element: video as unknown as HTMLVideoElement, lowLatency } },
      on: {
        command: { actions: sendTo("media", ({ event }) => (event.type === "command" ? event.command : { type: "media.stop" })) },
        "media.*": { actions: ({ event }) => facts.push(event as MediaFact) }
      }
    })
  ).start()
  const command = (value: MediaCommand) => parent.send({ type: "command", command: value })
  /** facts other than the first-frame and source-start reports */
  const reported = () => facts.filter((fact) => fact.type !== "media.firstFrame" && fact.type !== "media.started")
  return { parent, video, facts, reported, command }
}

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

export const hls = (index = 0): FakeHls => {
  const instance = FakeHls.instances[index]
  if (instance === undefined) throw new Error(`no hls.js instance ${index}`)
  return instance
}
