import { existsSync } from "node:fs"
import { listOriginChannels, originPlaylistPath } from "./originRoutes.ts"
import { posterPath } from "./posterRoutes.ts"

export interface DemoChannel {
  /** Directory under media/ that the live origin serves. */
  readonly name: string
  readonly title: string
  readonly image: string
  readonly tags: string
}

// Channel 1 shows every icon tag and an info note; channel 2 a warning, so a fresh install
// demonstrates each tag convention of the streams grid.
export const DEMO_CHANNELS: ReadonlyArray<DemoChannel> = [
  { name: "demo1", title: "Demo Channel 1", tags: "chromecast,airplay,lls,?Demo" },
  { name: "demo2", title: "Demo Channel 2", tags: "lls,!Test pattern" }
].map((channel) => ({ ...channel, image: posterPath(channel.name) }))

export interface DemoSources {
  /** The TV player's playlist. */
  readonly src: string
  /** The low-latency player's: Low-Latency HLS when the media carries parts. */
  readonly srcSldp: string
}

/** Where the built-in origin serves a demo channel. */
export async function demoSources(mediaDir: string, channel: string): Promise<DemoSources> {
  const found = existsSync(mediaDir) ? (await listOriginChannels(mediaDir)).find((c) => c.name === channel) : undefined
  const src = found?.src ?? originPlaylistPath(channel)
  return { src, srcSldp: found?.lowLatencySrc ?? src }
}
