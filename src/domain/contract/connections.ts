import * as Schema from "effect/Schema"
import { GrantText, StreamAccess } from "../Connection.ts"
import { ConnectionsInfo, ConnectionsQuery } from "../Reports.ts"
import { endpoint, OkResponse } from "./endpoint.ts"

export const ConnectionIdRequest = Schema.Struct({ id: Schema.Number })
export const GrantRequest = Schema.Struct({ grant: GrantText })

/** Live connections: staff watch and end them, a viewer's player asks why its grant was refused. */
export const connectionsContract = {
  connections: endpoint({
    method: "GET",
    path: "/api/adminreports/users",
    query: ConnectionsQuery,
    response: ConnectionsInfo,
    access: "staff",
    summary: "Live connections by account; with `page`, one page of them with the counters over all"
  }),
  endConnection: endpoint({
    method: "POST",
    path: "/api/adminreports/users/end",
    body: ConnectionIdRequest,
    response: OkResponse,
    access: "staff",
    summary: "End a live connection: its player stops at its next playlist request and is told staff ended it"
  }),
  streamAccess: endpoint({
    method: "POST",
    path: "/api/streams/access",
    body: GrantRequest,
    response: StreamAccess,
    access: "user",
    summary: "Why the origin refused a stream grant of this session (or that it now opens), with the account's streams playing elsewhere"
  }),
  endStream: endpoint({
    method: "POST",
    path: "/api/streams/end",
    body: ConnectionIdRequest,
    response: OkResponse,
    access: "user",
    summary: "End one of the account's own streams playing elsewhere, to make room for this one"
  }),
  closeStream: endpoint({
    method: "POST",
    path: "/api/streams/close",
    body: GrantRequest,
    response: OkResponse,
    access: "anyone",
    summary: "A player stopped (beacon): its connection no longer counts"
  })
} as const
