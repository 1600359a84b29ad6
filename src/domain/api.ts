import * as Schema from "effect/Schema"
import { Announcement } from "./Announcement.ts"
import { GrantText, StreamAccess } from "./Connection.ts"
import { IsoDay } from "./Dates.ts"
import { Invitation } from "./Invitation.ts"
import { MaintenanceStatus } from "./Maintenance.ts"
import { ConnectionsInfo, ConnectionsQuery, ReportRange, ReportSeries, Reports } from "./Reports.ts"
import { ResultCodeSchema } from "./ResultCode.ts"
import { NowNext, ScheduleItem, ScheduleQuery } from "./Schedule.ts"
import { SiteSettings } from "./SiteSettings.ts"
import { StreamsAnswer, StreamsQuery } from "./Stream.ts"
import { ActiveSubscription, SubscriptionPlans } from "./Subscription.ts"
import { MAINTENANCE_ROUTE, STREAMS_ROUTE } from "./startupRoutes.ts"
import { AnalyticsEvent, HealthEvents, MeteringRequest, PlayerToken, TimeSync } from "./Telemetry.ts"
import { NewTicket, OwnTicket, Ticket, TicketStatusSchema } from "./Ticket.ts"
import { ReplyMessage } from "./TicketDesk.ts"
import { Transaction } from "./Transaction.ts"
import { UserInfo } from "./User.ts"
import { Email, Password, TokenString, Username } from "./Validation.ts"

/** Who may call an endpoint: anyone, a signed-in user, or staff. */
export type Access = "anyone" | "user" | "staff"
export type Method = "GET" | "POST"
type AnySchema = Schema.ConstraintDecoder<unknown> & Schema.Top

export interface Endpoint<
  P extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  R extends AnySchema = AnySchema,
  Q extends AnySchema | undefined = AnySchema | undefined
> {
  readonly method: Method
  /** OpenAPI-style path; `{name}` segments are described by `params`. */
  readonly path: string
  readonly params: P
  /** The query string's parameters, each a string on the wire; absent when the endpoint takes none. */
  readonly query?: Q
  readonly body: B
  readonly response: R
  readonly access: Access
  readonly summary: string
}

const endpoint = <
  P extends AnySchema | undefined,
  B extends AnySchema | undefined,
  R extends AnySchema,
  Q extends AnySchema | undefined = undefined
>(
  e: Endpoint<P, B, R, Q>
): Endpoint<P, B, R, Q> => e

/** The failure body every endpoint may answer with (4xx/5xx). */
export const ApiFailure = Schema.Struct({
  success: Schema.Literal(false),
  status: Schema.Number,
  resultCode: Schema.optionalKey(ResultCodeSchema),
  detail: Schema.String
})
export type ApiFailure = typeof ApiFailure.Type

export const Ok = Schema.Struct({ success: Schema.Boolean, detail: Schema.optionalKey(Schema.String) })
/** A result-coded answer: success, the code of SPEC §8 and a detail for people. */
export const Coded = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  detail: Schema.optionalKey(Schema.String)
})
const TokenCheck = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  email: Schema.optionalKey(Schema.String),
  detail: Schema.optionalKey(Schema.String)
})
const Mobile = Schema.Struct({ isMobile: Schema.optionalKey(Schema.Boolean) })
const data = <S extends AnySchema>(schema: S) => Schema.Struct({ success: Schema.Boolean, data: schema })

export const LoginRequest = Schema.Struct({
  email: Email,
  password: Schema.String.check(Schema.isMaxLength(1024)),
  isMobile: Schema.optionalKey(Schema.Boolean)
})
export const LoginResult = Schema.Struct({
  success: Schema.Boolean,
  resultCode: ResultCodeSchema,
  token: Schema.optionalKey(Schema.String),
  detail: Schema.optionalKey(Schema.String)
})
export type LoginResult = typeof LoginResult.Type

const none = undefined
const anyone = "anyone" as const
const user = "user" as const
const staff = "staff" as const

export const api = {
  maintenance: endpoint({
    ...MAINTENANCE_ROUTE,
    params: none,
    body: none,
    response: MaintenanceStatus,
    access: anyone,
    summary: "Maintenance status"
  }),
  siteSettings: endpoint({
    method: "GET",
    path: "/api/site-settings",
    params: none,
    body: none,
    response: data(SiteSettings),
    access: anyone,
    summary: "Site settings"
  }),
  announcement: endpoint({
    method: "GET",
    path: "/api/announcement/latest",
    params: none,
    body: none,
    response: Announcement,
    access: user,
    summary: "The latest announcement"
  }),
  streams: endpoint({
    ...STREAMS_ROUTE,
    params: none,
    query: StreamsQuery,
    body: none,
    response: StreamsAnswer,
    access: user,
    summary:
      "Every stream, in display order; with `start` and `player`, also the playlist that player plays of that stream when this server's origin serves it"
  }),

  login: endpoint({
    method: "POST",
    path: "/api/users/login",
    params: none,
    body: LoginRequest,
    response: LoginResult,
    access: anyone,
    summary: "Sign in; answers a session token"
  }),
  logout: endpoint({
    method: "POST",
    path: "/api/users/logout",
    params: none,
    body: none,
    response: Ok,
    access: user,
    summary: "End this session"
  }),
  logoutAll: endpoint({
    method: "POST",
    path: "/api/users/logoutall",
    params: none,
    body: none,
    response: Ok,
    access: user,
    summary: "End every session of the account"
  }),
  isAuthenticated: endpoint({
    method: "GET",
    path: "/api/users/isuserauthenticated",
    params: none,
    body: none,
    response: Ok,
    access: anyone,
    summary: "Whether the Token header is a live session"
  }),
  userInfo: endpoint({
    method: "POST",
    path: "/api/users/user",
    params: none,
    body: Mobile,
    response: Schema.Struct({ success: Schema.Boolean, data: UserInfo }),
    access: user,
    summary: "The signed-in user"
  }),
  register: endpoint({
    method: "POST",
    path: "/api/users/register",
    params: none,
    body: Schema.Struct({ username: Username, email: Email, password: Password, invitationToken: TokenString }),
    response: Coded,
    access: anyone,
    summary: "Create an account from an invite"
  }),
  verifyEmail: endpoint({
    method: "POST",
    path: "/api/users/verify-new-email-token",
    params: none,
    body: Schema.Struct({ token: TokenString }),
    response: Coded,
    access: anyone,
    summary: "Verify a new account's email"
  }),
  updatePassword: endpoint({
    method: "POST",
    path: "/api/users/updatepassword",
    params: none,
    body: Schema.Struct({ currentPassword: Password, newPassword: Password }),
    response: Coded,
    access: user,
    summary: "Change the password"
  }),
  updateUsernameAndEmail: endpoint({
    method: "POST",
    path: "/api/users/updateusernameandemail",
    params: none,
    body: Schema.Struct({ username: Username, email: Email, password: Schema.String }),
    response: Schema.Struct({
      success: Schema.Boolean,
      resultCode: ResultCodeSchema,
      emailUpdatePending: Schema.Boolean,
      usernameUpdated: Schema.Boolean,
      detail: Schema.optionalKey(Schema.String)
    }),
    access: user,
    summary: "Change username and/or email (the email after confirmation)"
  }),
  confirmEmailChange: endpoint({
    method: "POST",
    path: "/api/users/confirmemailchange",
    params: none,
    body: Schema.Struct({ email_token: TokenString }),
    response: TokenCheck,
    access: anyone,
    summary: "Confirm an email change"
  }),
  createPasswordReset: endpoint({
    method: "POST",
    path: "/api/users/create-password-reset-token",
    params: none,
    body: Schema.Struct({ email: Email }),
    response: Ok,
    access: anyone,
    summary: "Mail a password reset link (same answer whether or not the email exists)"
  }),
  verifyPasswordReset: endpoint({
    method: "POST",
    path: "/api/users/verify-password-reset-token",
    params: none,
    body: Schema.Struct({ token: TokenString }),
    response: TokenCheck,
    access: anyone,
    summary: "Check a password reset token"
  }),
  resetPassword: endpoint({
    method: "POST",
    path: "/api/users/reset-password",
    params: none,
    body: Schema.Struct({ token: TokenString, newPassword: Password }),
    response: Coded,
    access: anyone,
    summary: "Set a new password with a reset token"
  }),

  invitation: endpoint({
    method: "GET",
    path: "/api/invitations/invitation/{token}",
    params: Schema.Struct({ token: TokenString }),
    body: none,
    response: Coded,
    access: anyone,
    summary: "Check an invite code"
  }),
  invitations: endpoint({
    method: "GET",
    path: "/api/invitations/user/all",
    params: none,
    body: none,
    response: Schema.Struct({
      success: Schema.Boolean,
      inviteToken: Schema.String,
      inviteLink: Schema.String,
      data: Schema.Array(Invitation)
    }),
    access: user,
    summary: "The user's invite token, its link at PUBLIC_URL, and the invitations it brought, newest first"
  }),
  rewardPoints: endpoint({
    method: "GET",
    path: "/api/invitations/rewardpoints",
    params: none,
    body: none,
    response: Schema.Struct({ success: Schema.Boolean, rewardPoints: Schema.Number, pricePerRewardPoint: Schema.Number }),
    access: user,
    summary: "Reward points and their value"
  }),

  schedule: endpoint({
    method: "GET",
    path: "/api/scheduler/{id}",
    params: Schema.Struct({ id: IsoDay }),
    query: ScheduleQuery,
    body: none,
    response: data(Schema.Struct({ Items: Schema.Array(ScheduleItem) })),
    access: user,
    summary: "The programmes that overlap a local day, by channel in stream order"
  }),
  nowNext: endpoint({
    method: "GET",
    path: "/api/guide/now",
    params: none,
    body: none,
    response: data(Schema.Array(NowNext)),
    access: user,
    summary: "What airs now and next on each stream that has a guide"
  }),
  payments: endpoint({
    method: "GET",
    path: "/api/payments",
    params: none,
    body: none,
    response: data(Schema.Array(Transaction)),
    access: user,
    summary: "The user's transactions"
  }),
  activeSubscription: endpoint({
    method: "GET",
    path: "/api/subscriptions/useractivesubscription",
    params: none,
    body: none,
    response: ActiveSubscription,
    access: user,
    summary: "The user's active subscription"
  }),
  subscriptionPlans: endpoint({
    method: "GET",
    path: "/api/subscriptions/subscription-price-and-discount-rates",
    params: none,
    body: none,
    response: SubscriptionPlans,
    access: user,
    summary: "Subscription price and discount rates"
  }),

  createTicket: endpoint({
    method: "POST",
    path: "/api/support/ticket",
    params: none,
    body: NewTicket,
    response: Coded,
    access: user,
    summary: "Open a support ticket"
  }),
  myTickets: endpoint({
    method: "GET",
    path: "/api/support/tickets",
    params: none,
    body: none,
    response: data(Schema.Array(OwnTicket)),
    access: user,
    summary: "The signed-in user's own tickets, newest first"
  }),
  tickets: endpoint({
    method: "GET",
    path: "/api/support/adminsuppottickets",
    params: none,
    body: none,
    response: data(Schema.Array(Ticket)),
    access: staff,
    summary: "Every support ticket"
  }),
  updateTicket: endpoint({
    method: "POST",
    path: "/api/support/updateSupportTicket",
    params: none,
    body: Schema.Struct({ ticketId: Schema.Number, newStatus: TicketStatusSchema }),
    response: Coded,
    access: staff,
    summary: "Set a ticket's status"
  }),
  replyToTicket: endpoint({
    method: "POST",
    path: "/api/emailservice/emailUserNotification",
    params: none,
    body: Schema.Struct({ userId: Schema.Number, ticketId: Schema.Number, message: ReplyMessage }),
    response: Coded,
    access: staff,
    summary: "Mail a reply to a ticket's author"
  }),
  reports: endpoint({
    method: "POST",
    path: "/api/adminreports/all",
    params: none,
    body: ReportRange,
    response: Reports,
    access: staff,
    summary: "Subscriber and revenue reports; the range's days are UTC days"
  }),
  reportSeries: endpoint({
    method: "POST",
    path: "/api/adminreports/daily",
    params: none,
    body: ReportRange,
    response: ReportSeries,
    access: staff,
    summary: "The range's figures per UTC day, its totals and those of the period before it"
  }),
  connections: endpoint({
    method: "GET",
    path: "/api/adminreports/users",
    params: none,
    query: ConnectionsQuery,
    body: none,
    response: ConnectionsInfo,
    access: staff,
    summary: "Live connections by account; with `page`, one page of them with the counters over all"
  }),
  endConnection: endpoint({
    method: "POST",
    path: "/api/adminreports/users/end",
    params: none,
    body: Schema.Struct({ id: Schema.Number }),
    response: Ok,
    access: staff,
    summary: "End a live connection: its player stops at its next playlist request and is told staff ended it"
  }),
  streamAccess: endpoint({
    method: "POST",
    path: "/api/streams/access",
    params: none,
    body: Schema.Struct({ grant: GrantText }),
    response: StreamAccess,
    access: user,
    summary: "Why the origin refused a stream grant of this session (or that it now opens), with the account's streams playing elsewhere"
  }),
  endStream: endpoint({
    method: "POST",
    path: "/api/streams/end",
    params: none,
    body: Schema.Struct({ id: Schema.Number }),
    response: Ok,
    access: user,
    summary: "End one of the account's own streams playing elsewhere, to make room for this one"
  }),
  closeStream: endpoint({
    method: "POST",
    path: "/api/streams/close",
    params: none,
    body: Schema.Struct({ grant: GrantText }),
    response: Ok,
    access: anyone,
    summary: "A player stopped (beacon): its connection no longer counts"
  }),

  playerToken: endpoint({
    method: "GET",
    path: "/api/player/token",
    params: none,
    body: none,
    response: PlayerToken,
    access: user,
    summary: "This session's player token and its permissions"
  }),
  metering: endpoint({
    method: "POST",
    path: "/api/metering",
    params: none,
    body: MeteringRequest,
    response: Ok,
    access: user,
    summary: "Player usage metering"
  }),
  analytics: endpoint({
    method: "POST",
    path: "/api/analytics/{videoType}/{siteGroupId}/{event}",
    params: Schema.Struct({
      videoType: Schema.Literals(["live", "vod"]),
      siteGroupId: Schema.String,
      event: Schema.Literals(["display", "ping", "view"])
    }),
    body: AnalyticsEvent,
    response: Ok,
    access: user,
    summary: "Player analytics event"
  }),
  healthEvents: endpoint({
    method: "POST",
    path: "/api/health-events",
    params: none,
    body: HealthEvents,
    response: Ok,
    access: user,
    summary: "Player health events (beacon): the session token travels in the body's `token` when no Token header can be sent"
  }),
  timeSync: endpoint({
    method: "GET",
    path: "/time.json",
    params: none,
    body: none,
    response: TimeSync,
    access: anyone,
    summary: "Server time for clock correction"
  })
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
/** What the browser gets back from a call: the endpoint's answer or a failure body. */
export type ApiResult<N extends EndpointName> = ResponseOf<N> | ApiFailure

/**
 * A call's result after a 403: the session is gone and the visitor is on the way to /login
 * (SPEC §8), so there is nothing of the call itself to show.
 */
export interface SessionEnded {
  readonly sessionEnded: true
}
export const SESSION_ENDED: SessionEnded = { sessionEnded: true }
export const isSessionEnded = (result: object | undefined): result is SessionEnded => result !== undefined && "sessionEnded" in result

/** What a call of the browser's http adapter resolves to: it never rejects. */
export type CallResult<N extends EndpointName> = ApiResult<N> | SessionEnded
/** What a handler returns: the response as encoded on the wire. */
export type EncodedResponseOf<N extends EndpointName> = Api[N]["response"]["Encoded"]

/** Fills `{name}` segments of a contract path, and adds the query's parameters that are set. */
export const buildPath = (path: string, params: Record<string, string> | undefined, query?: Record<string, string | undefined>): string => {
  const filled = path.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params?.[key] ?? ""))
  const search = new URLSearchParams(Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined))
  return search.size === 0 ? filled : `${filled}?${search}`
}
