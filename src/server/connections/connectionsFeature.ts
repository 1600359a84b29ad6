import { createSecretKey } from "node:crypto"
import type { Kysely, QueryCreator } from "kysely"
import type { StreamHealth } from "../../domain/Reports.ts"
import type { Tables, Timestamp } from "../db/schema.ts"
import { feeds } from "../feeds/feedsFeature.ts"
import { networkOf } from "../http/clientNetwork.ts"
import { keptFor } from "../http/keptFor.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { siteSettings } from "../shell/shellFeature.ts"
import { createConnectionGate } from "./connectionGate.ts"
import { connectionHandlers } from "./connectionHandlers.ts"
import { grantKey, liveCountsByStream, pruneConnections, pruneConnectionsOverBudget } from "./connectionsRepo.ts"
import { type Heartbeat, recordHeartbeats } from "./heartbeatsRepo.ts"
import { LIVE_CONNECTION_WINDOW_MS } from "./liveness.ts"
import { playerTokenOf } from "./playerTokens.ts"
import { type GrantKey, ownChannelOf } from "./streamGrants.ts"
import { createUnknownViewers, registerStreamGuard } from "./streamGuard.ts"
import { createQoeTracker, insertQoeSamples, pruneQoeSamples, type QoeSample, streamHealth } from "./streamHealth.ts"
import { createStreamSigner, type StreamSigner } from "./streamSigner.ts"

/** The streams' quality covers this much time, as on the staff view. */
const QUALITY_WINDOW_MS = 60 * 60 * 1000
// The limit is read on every start of a stream; a changed setting applies within this long.
const SETTINGS_FOR_MS = 5000

/** The key stream grants are signed with, read once from the database every instance shares. */
export function grantKeyOf(db: Kysely<Tables>): () => Promise<GrantKey> {
  let key: Promise<GrantKey> | undefined
  return () => {
    key ??= grantKey(db).then((text) => createSecretKey(Buffer.from(text, "base64url")))
    key.catch(() => (key = undefined))
    return key
  }
}

/**
 * Who is watching right now and on what terms: our origin's playlists open only with a grant
 * signed for the session, each player session is a connection staff can see and end, and an
 * account watches no more streams at once than the site allows.
 */
export function connectionsFeature({ db, now, log, counters }: FeatureDeps): ServerFeature {
  const onError = (error: unknown) => log.warn({ err: error }, "connections: a write failed; the next request tries again")
  const maxStreams = keptFor(SETTINGS_FOR_MS, async () => (await siteSettings.inEffect(db)).maxStreamsPerAccount, now)
  const key = grantKeyOf(db)
  const gate = createConnectionGate({ db, now, maxStreams, onError })
  const unknown = createUnknownViewers(db, onError)
  return {
    handlers: connectionHandlers({ db, now, gate, key, maxStreams, feeds: (at) => feeds.statuses(db, at) }),
    // on the root instance, so the hook also sees the origin's playlists
    routes: async (app) => registerStreamGuard(app, { key, gate, unknown, counters, now }),
    jobs: [{ stop: () => gate.close() }, { stop: () => unknown.close() }]
  }
}

/** What player telemetry and the streams list ask of connections, and how their old rows go. */
export const connections = {
  /** Players watching each stream now, for the metrics. */
  liveCounts: (db: Kysely<Tables>, at: number) => liveCountsByStream(db, new Date(at - LIVE_CONNECTION_WINDOW_MS).toISOString()),
  /** Players' heartbeats as of `at`; a connection quiet for the live window starts afresh. */
  heartbeats: (db: QueryCreator<Tables>, beats: ReadonlyArray<Heartbeat>, at: number): Promise<void> =>
    recordHeartbeats(db, beats, new Date(at - LIVE_CONNECTION_WINDOW_MS).toISOString()),
  prune: async (db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> =>
    (await pruneConnections(db, cutoff, limit)) + (await pruneQoeSamples(db, cutoff, limit)),
  /** Forgets up to `limit` rows beyond the budgets of what a flood could fill (refused networks). */
  pruneOverBudget: (db: Kysely<Tables>, limit: number): Promise<number> => pruneConnectionsOverBudget(db, limit),
  /** Each stream's quality over the last hour and its viewers now, as staff see it. */
  quality: async (db: Kysely<Tables>, at: number): Promise<Array<StreamHealth>> => {
    const live = await liveCountsByStream(db, new Date(at - LIVE_CONNECTION_WINDOW_MS).toISOString())
    const viewers = new Map(live.map(({ stream, viewers }) => [stream, viewers]))
    return streamHealth(db, new Date(at - QUALITY_WINDOW_MS).toISOString(), viewers)
  },
  /** Reads players' health records as quality samples per stream (stalls span beacons, so it remembers). */
  qoeTracker: createQoeTracker,
  qoeSamples: (db: Kysely<Tables>, samples: ReadonlyArray<QoeSample>): Promise<void> => insertQoeSamples(db, samples),
  playerTokenOf,
  networkOf,
  /** Whether an address is one of our own origin's playlists, which open only with a grant. */
  isOwnOrigin: (src: string, publicUrl: string): boolean => ownChannelOf(src, publicUrl) !== undefined,
  /** Signs the streams of our own origin for a session's players. */
  signer: (db: Kysely<Tables>, publicUrl: string, now: () => number): StreamSigner => createStreamSigner(grantKeyOf(db), publicUrl, now)
} as const
