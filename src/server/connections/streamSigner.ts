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
    return streams.map((stream) => ({
      ...stream,
      src: sign(stream.src, stream.id, "tv"),
      src_sldp: sign(stream.src_sldp, stream.id, "lls")
    }))
  }
}
