import { passwordResetContract, profileContract, registrationContract, signInContract } from "./account.ts"
import { auditContract } from "./audit.ts"
import { connectionsContract } from "./connections.ts"
import type { AnySchema } from "./endpoint.ts"
import { guideContract } from "./guide.ts"
import { invitesContract } from "./invites.ts"
import { paymentsContract } from "./payments.ts"
import { remindersContract } from "./reminders.ts"
import { reportsContract } from "./reports.ts"
import { shellContract } from "./shell.ts"
import { streamsContract } from "./streams.ts"
import { supportContract } from "./support.ts"
import { telemetryContract } from "./telemetry.ts"

/** The whole API: every feature's endpoints, by name. The server routes it, the browser calls it, OpenAPI documents it. */
export const api = {
  ...shellContract,
  ...streamsContract,
  ...signInContract,
  ...registrationContract,
  ...passwordResetContract,
  ...profileContract,
  ...invitesContract,
  ...guideContract,
  ...remindersContract,
  ...paymentsContract,
  ...supportContract,
  ...reportsContract,
  ...connectionsContract,
  ...telemetryContract,
  ...auditContract
} as const

export type Api = typeof api
export type EndpointName = keyof Api
export type ParamsOf<N extends EndpointName> = Api[N]["params"] extends AnySchema ? Api[N]["params"]["Type"] : undefined
export type BodyOf<N extends EndpointName> = Api[N]["body"] extends AnySchema ? Api[N]["body"]["Type"] : undefined
export type QueryOf<N extends EndpointName> = Api[N] extends { readonly query?: infer Q }
  ? Q extends AnySchema
    ? Q["Type"]
    : undefined
  : undefined
export type ResponseOf<N extends EndpointName> = Api[N]["response"]["Type"]
/** What a handler returns: the response as encoded on the wire. */
export type EncodedResponseOf<N extends EndpointName> = Api[N]["response"]["Encoded"]
