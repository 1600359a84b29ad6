import type { PlayerApp } from "../../domain/Connection.ts"
import type { Session } from "../http/session.ts"
import { type GrantKey, grantSlot, ownChannelOf, signGrant } from "./streamGrants.ts"

interface Sources {
  readonly id: number
  readonly src: string | null
  readonly src_sldp: string | null
}

/** Adds a session's grants to the streams our own origin serves; other origins' addresses pass as they are. */
export type StreamSigner = <T extends Sources>(session: Session, streams: ReadonlyArray<T>, host?: string) => Promise<Array<T>>

/** One address as the signer treats it: passed as it is, or granted for its channel of our origin. */
type Planned = { readonly pass: string | null } | { readonly channel: string; readonly granted: (grant: string) => string }

interface Plan {
  readonly host: string | undefined
  readonly streams: ReadonlyArray<{ readonly tv: Planned; readonly lls: Planned }>
}

export function createStreamSigner(key: () => Promise<GrantKey>, publicUrl: string, now: () => number): StreamSigner {
  const planned = (src: string | null, host: string | undefined): Planned => {
    const channel = src === null ? undefined : ownChannelOf(src, publicUrl, host)
    return src === null || channel === undefined ? { pass: src } : { channel, granted: grantSlot(src) }
  }
  // Without a low-latency source of its own, the low-latency player plays `src`: it gets that address
  // under a grant of its own, so its playlists, heartbeats and closing beacon all name one connection
  // (with the TV player's grant they named two, and the beacon ended only the one it never heartbeat).
  const planOf = (streams: ReadonlyArray<Sources>, host: string | undefined): Plan => ({
    host,
    streams: streams.map((stream) => {
      const tv = planned(stream.src, host)
      return { tv, lls: stream.src_sldp !== null || "pass" in tv ? planned(stream.src_sldp, host) : tv }
    })
  })
  // Every viewer's grid signs the same shared (frozen) list: which of its addresses are ours, and
  // where a grant goes in each, is worked out once per list and host, not for every request.
  const plans = new WeakMap<ReadonlyArray<Sources>, Plan>()
  const planFor = (streams: ReadonlyArray<Sources>, host: string | undefined): Plan => {
    const kept = plans.get(streams)
    if (kept !== undefined && kept.host === host) return kept
    const plan = planOf(streams, host)
    if (Object.isFrozen(streams)) plans.set(streams, plan)
    return plan
  }
  return async (session, streams, host) => {
    const secret = await key()
    const issuedAt = now()
    const sign = (address: Planned, streamId: number, app: PlayerApp): string | null =>
      "pass" in address
        ? address.pass
        : address.granted(
            signGrant(secret, {
              userId: session.userId,
              sessionId: session.sessionId,
              streamId: String(streamId),
              app,
              channel: address.channel,
              issuedAt
            })
          )
    const plan = planFor(streams, host)
    return streams.map((stream, index) => {
      const { tv, lls } = plan.streams[index] ?? { tv: { pass: stream.src }, lls: { pass: stream.src_sldp } }
      return { ...stream, src: sign(tv, stream.id, "tv"), src_sldp: sign(lls, stream.id, "lls") }
    })
  }
}
