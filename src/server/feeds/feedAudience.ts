/**
 * Who watches a channel's feed: viewers by their grants, and the other instances that take the
 * channel from this one with their own viewers' count. A feed with nobody for a while stops.
 */
const VIEWER_WINDOW_MS = 30_000

export class FeedAudience {
  private readonly viewers = new Map<string, number>()
  private readonly peers = new Map<string, { readonly viewers: number; readonly at: number }>()
  /** epoch ms of the last request for the channel */
  lastSeenAt = 0
  private readonly now: () => number

  constructor(now: () => number) {
    this.now = now
  }

  viewer(grant: string): void {
    this.lastSeenAt = this.now()
    this.viewers.set(grant, this.lastSeenAt)
  }

  peer(instance: string, viewers: number): void {
    this.lastSeenAt = this.now()
    this.peers.set(instance, { viewers, at: this.lastSeenAt })
  }

  /** Viewers seen within the window, here and at the instances that take the channel from this one. */
  count(): number {
    const at = this.now()
    let count = 0
    for (const seen of this.viewers.values()) if (at - seen <= VIEWER_WINDOW_MS) count += 1
    for (const seen of this.peers.values()) if (at - seen.at <= VIEWER_WINDOW_MS) count += seen.viewers
    return count
  }

  /** Forgets those not seen within the window. */
  tidy(): void {
    const at = this.now()
    for (const [viewer, seen] of this.viewers) if (at - seen > VIEWER_WINDOW_MS) this.viewers.delete(viewer)
    for (const [peer, seen] of this.peers) if (at - seen.at > VIEWER_WINDOW_MS) this.peers.delete(peer)
  }

  clear(): void {
    this.viewers.clear()
    this.peers.clear()
  }
}
