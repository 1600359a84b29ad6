import type { PlayerApp } from "../../domain/Connection.ts"
import type { Session } from "../http/session.ts"
import { type GrantKey, ownChannelOf, signGrant, withGrant } from "./streamGrants.ts"

interface Sources {
  readonly id: number
  readonly src: string | null
  readonly src_sldp: string | null
}

/** Adds a session's grants to the streams our own origin serves; other origins' addresses pass as they are. */
export type StreamSigner = <T extends Sources>(session: Session, streams: ReadonlyArray<T>, host?: string) => Promise<Array<T>>

export function createStreamSigner(key: () => Promise<GrantKey>, publicUrl: string, now: () => number): StreamSigner {
  return async (session, streams, host) => {
    const secret = await key()
    const issuedAt = now()
    const sign = (src: string | null, streamId: number, app: PlayerApp): string | null => {
      if (src === null) return null
      const channel = ownChannelOf(src, publicUrl, host)
      if (channel === undefined) return src
      return withGrant(
        src,
        signGrant(secret, { userId: session.userId, sessionId: session.sessionId, streamId: String(streamId), app, channel, issuedAt })
      )
    }
    // Without a low-latency source of its own, the low-latency player plays `src`: it gets that address
    // under a grant of its own, so its playlists, heartbeats and closing beacon all name one connection
    // (with the TV player's grant they named two, and the beacon ended only the one it never heartbeat).
    const lowLatencySource = (stream: Sources): string | null =>
      stream.src_sldp ?? (stream.src !== null && ownChannelOf(stream.src, publicUrl, host) !== undefined ? stream.src : null)
    return streams.map((stream) => ({
      ...stream,
      src: sign(stream.src, stream.id, "tv"),
      src_sldp: sign(lowLatencySource(stream), stream.id, "lls")
    }))
  }
}
