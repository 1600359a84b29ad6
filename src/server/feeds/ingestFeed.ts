/**
 * A channel an encoder pushes to us (RTMP or SRT, with the channel's key): while its publisher is
 * connected, Debian's ffmpeg copies what it sends into fragments our packager makes LL-HLS of, as
 * for a pulled channel. A publisher that leaves leaves the channel stalled (its viewers are told);
 * one that comes back continues the same playlist after a discontinuity; nobody back for a while
 * and the channel goes idle.
 */
import type { ChildProcess } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { type FfmpegInput, PulledFeed } from "./pulledFeed.ts"
import type { FeedState } from "./relayFeed.ts"

/** An encoder connected with a channel's key, as the ingest listeners hand it to the channel's feed. */
export interface Publisher {
  readonly protocol: "RTMP" | "SRT"
  /** where it connects from, for staff and the log */
  readonly address: string
  /** What ffmpeg reads to take the publisher's media. */
  input(): FfmpegInput
  /** ffmpeg runs for the publisher now; `detach` when that ffmpeg has ended. */
  attach(child: ChildProcess): void
  detach(child: ChildProcess): void
  /** The feed lets the publisher go (its key was replaced, the channel stopped or removed). */
  close(reason: string): void
}

/** What the ingest ports are told of a publisher: taken (and told when it leaves), or refused with a reason. */
export type PublishDecision =
  | { readonly accepted: true; readonly ended: () => void }
  | { readonly accepted: false; readonly reason: "badKey" | "busy" | "unavailable"; readonly description: string }

/** Decides on a publisher that gave `key`. */
export type IngestGate = (key: string, publisher: Publisher) => Promise<PublishDecision>

/** How `stream_feeds` keeps an ingest channel's key: only its hash, behind this prefix. */
const KEY_PREFIX = "ingest:sha256:"

/** A new secret key for a channel: what the operator types into the encoder. */
export const newIngestKey = (): string => randomBytes(18).toString("base64url")

/** What the channel's feed row keeps of a key. */
export const storedIngestKey = (key: string): string => `${KEY_PREFIX}${createHash("sha256").update(key).digest("hex")}`

/** Whether a key an encoder sent has the form of ours, before anything is looked up. */
export const looksLikeIngestKey = (key: string): boolean => /^[A-Za-z0-9_-]{24}$/.test(key)

// the publisher gone for this long, the channel is idle (its playlist and media forgotten)
const PUBLISHER_GONE_MS = 60_000

export class IngestFeed extends PulledFeed {
  private publisher: Publisher | undefined
  /** the publisher each running ffmpeg serves */
  private readonly serving = new WeakMap<ChildProcess, Publisher>()
  private publisherLeftAt = 0

  get publishing(): boolean {
    return this.publisher !== undefined
  }

  /** Takes the publisher's media, unless another publisher is connected. */
  publish(publisher: Publisher): "accepted" | "busy" {
    if (this.publisher !== undefined) return "busy"
    this.publisher = publisher
    this.lastError = null
    this.notify()
    if (!this.running) this.start()
    // the last publisher's ffmpeg, still finishing, starts the new one when it ends
    else if (this.child === undefined) this.spawn()
    return "accepted"
  }

  /** The publisher went away (or was let go). */
  unpublish(publisher: Publisher): void {
    if (this.publisher !== publisher) return
    this.publisher = undefined
    this.publisherLeftAt = performance.now()
    this.notify()
  }

  /** Viewers alone do not start an ingest channel: its publisher does. */
  override start(): void {
    if (this.publisher !== undefined) super.start()
  }

  override stop(): void {
    const publisher = this.publisher
    this.publisher = undefined
    publisher?.close("the channel stopped")
    super.stop()
  }

  protected override idleTooLong(): boolean {
    return this.publisher === undefined && performance.now() - this.publisherLeftAt > PUBLISHER_GONE_MS
  }

  protected override input(): FfmpegInput | undefined {
    return this.publisher?.input()
  }

  protected override attach(child: ChildProcess): void {
    const publisher = this.publisher
    if (publisher === undefined) return
    this.serving.set(child, publisher)
    publisher.attach(child)
  }

  protected override detach(child: ChildProcess): void {
    this.serving.get(child)?.detach(child)
  }

  protected override restartDelay(child: ChildProcess): number | undefined {
    // ffmpeg ends with its publisher; a publisher still here gets a new one, a new publisher at once
    if (this.publisher === undefined) return undefined
    if (this.serving.get(child) !== this.publisher) {
      this.failures = 0
      return 0
    }
    return super.restartDelay(child)
  }

  /** ffmpeg ends when its publisher leaves: that is no error. */
  protected override endedAsExpected(child: ChildProcess): boolean {
    return this.serving.get(child) !== this.publisher
  }

  protected override waitingReason(state: FeedState): "starting" | "signalLost" {
    return this.publisher === undefined ? "signalLost" : super.waitingReason(state)
  }

  protected override source(): string | null {
    return this.publisher === undefined ? null : `${this.publisher.protocol} from ${this.publisher.address}`
  }

  override state(): FeedState {
    if (this.running && this.publisher === undefined) return "stalled"
    return super.state()
  }
}
