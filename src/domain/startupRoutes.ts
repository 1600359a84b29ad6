// The two calls a page makes before anything else. Their routes live here, free of the schema
// library, so a player page can send them before that library has loaded; the API contract
// (api.ts) builds their endpoints from these.

export const MAINTENANCE_ROUTE = { method: "GET", path: "/api/maintenance" } as const
export const STREAMS_ROUTE = { method: "GET", path: "/api/streams/all" } as const

export type StartupRoute = typeof MAINTENANCE_ROUTE | typeof STREAMS_ROUTE
