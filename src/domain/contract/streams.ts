import { StreamsQuery, StreamsResponse } from "../Stream.ts"
import { STREAMS_ROUTE } from "../startupRoutes.ts"
import { endpoint } from "./endpoint.ts"

/** The streams grid and both players read the one list. */
export const streamsContract = {
  streams: endpoint({
    ...STREAMS_ROUTE,
    query: StreamsQuery,
    response: StreamsResponse,
    access: "user",
    summary:
      "Every stream, in display order; with `start` and `player`, also the playlist that player plays of that stream when this server's origin serves it"
  })
} as const
