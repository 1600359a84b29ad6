/**
 * What fills our origin besides the demo loop (DESIGN.md, "Real channels"): channels relayed from
 * an upstream HLS playlist and channels ffmpeg pulls, each fed once per channel across instances.
 * The origin serves them under `/live`, the operator's stream commands add them, staff see them.
 */
import { looksLikeIngestKey, newIngestKey, storedIngestKey } from "./ingestFeed.ts"
import { createIngestListeners, pushAddresses } from "./ingestListeners.ts"
import { createRelayFeeds } from "./relayFeeds.ts"
import { registerRelayRoutes } from "./relayRoutes.ts"
import {
  feedStatuses,
  ffmpegVersion,
  listRelays,
  probePull,
  probeUpstream,
  RelayRefused,
  readHeaders,
  relayPlaylistOf,
  saveRelay
} from "./relaySetup.ts"

export const feeds = {
  /** The instance's feeds, kept in step with `stream_feeds`: a job the origin runs. */
  create: createRelayFeeds,
  /** Their routes under `/live` (and `/internal/relay` for the other instances). */
  routes: registerRelayRoutes,
  probe: probeUpstream,
  probePull,
  ffmpegVersion,
  readHeaders,
  save: saveRelay,
  list: listRelays,
  statuses: feedStatuses,
  playlistOf: relayPlaylistOf,
  Refused: RelayRefused,
  /** The RTMP and SRT ports encoders push ingest channels to: a job beside the feeds. */
  ingest: createIngestListeners,
  pushAddresses,
  newIngestKey,
  storedIngestKey,
  looksLikeIngestKey
} as const
