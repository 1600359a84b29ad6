import { FeedAudience } from "./feedAudience.ts"
import type { RelayFeedDeps, RelaySettings } from "./relayFeed.ts"

/** What every kind of feed does alike: its settings, whether it runs, and who it runs for. */
export abstract class FeedBase {
  protected running = false
  protected readonly audience: FeedAudience
  settings: RelaySettings
  protected readonly deps: RelayFeedDeps

  constructor(settings: RelaySettings, deps: RelayFeedDeps) {
    this.settings = settings
    this.deps = deps
    this.audience = new FeedAudience(deps.now)
  }

  get channel(): string {
    return this.settings.channel
  }

  get isRunning(): boolean {
    return this.running
  }

  /** A viewer asked for something of the channel: it runs (again) and counts them. */
  touch(viewer: string): void {
    this.audience.viewer(viewer)
    if (!this.running) this.start()
  }

  /** Another instance takes the channel from this one, for `viewers` of its own. */
  touchPeer(peer: string, viewers: number): void {
    this.audience.peer(peer, viewers)
    if (!this.running) this.start()
  }

  viewerCount(): number {
    return this.audience.count()
  }

  abstract start(): void
}
