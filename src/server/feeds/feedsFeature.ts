/**
 * What fills our origin besides the demo loop (DESIGN.md, "Real channels"): channels relayed from
 * an upstream HLS playlist and channels ffmpeg pulls, each fed once per channel across instances.
 * The origin serves them under `/live`, the operator's stream commands add them, staff see them.
 */
import { createRelayFeeds } from "./relayFeeds.ts"
import { registerRelayRoutes } from "./relayRoutes.ts"
import { feedStatuses, listRelays, probePull, probeUpstream, RelayRefused, readHeaders, relayPlaylistOf, saveRelay } from "./relaySetup.ts"

export const feeds = {
  /** The instance's feeds, kept in step with `stream_feeds`: a job the origin runs. */
  create: createRelayFeeds,
  /** Their routes under `/live` (and `/internal/relay` for the other instances). */
  routes: registerRelayRoutes,
  probe: probeUpstream,
  probePull,
  readHeaders,
  save: saveRelay,
  list: listRelays,
  statuses: feedStatuses,
  playlistOf: relayPlaylistOf,
  Refused: RelayRefused
} as const
