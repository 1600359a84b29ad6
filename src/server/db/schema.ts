import type { ColumnType, Generated, Selectable } from "kysely"
import type { TicketCategory, TicketStatus } from "../../domain/Ticket.ts"

// Timestamps are ISO-8601 UTC strings (`Date.prototype.toISOString()`) on both dialects: they
// round-trip byte for byte and compare correctly as text, which timestamptz would not give us
// identically on SQLite.
export type Timestamp = string

/** A column the database fills in when the insert leaves it out. */
type Defaulted<T> = ColumnType<T, T | undefined, T>

export interface UsersTable {
  id: Generated<number>
  username: string
  email: string
  password_hash: string
  is_staff: Defaulted<boolean>
  is_active: Defaulted<boolean>
  email_verified_at: Timestamp | null
  invite_token: string
  created_at: Timestamp
}

export interface SessionsTable {
  id: Generated<number>
  user_id: number
  token_hash: string
  is_mobile: Defaulted<boolean>
  user_agent: string | null
  ip: string | null
  created_at: Timestamp
  last_seen_at: Timestamp
  expires_at: Timestamp
}

export interface StreamsTable {
  id: Generated<number>
  position: number
  title: string
  src: string | null
  src_sldp: string | null
  image_location: Defaulted<string>
  tags: Defaulted<string>
  tags_sldp: Defaulted<string>
  maintenance_mode: Defaulted<boolean>
  created_at: Timestamp
  /** The XMLTV channel whose programmes this stream plays; null when it has no guide. */
  epg_channel_id: Defaulted<string | null>
}

/** Where a channel of our origin gets its media: never sent to a browser. */
export interface StreamFeedsTable {
  stream_id: number
  /** The `/live/<channel>/` path its playlists are served at. */
  channel: string
  kind: FeedKind
  upstream_url: string
  /** JSON: an array of [name, value] pairs sent with every upstream request. */
  upstream_headers: Defaulted<string>
  /** Kept running with nobody watching. */
  always_on: Defaulted<boolean>
  created_at: Timestamp
}

/** What the instance running a feed last saw of it. */
export interface FeedHealthTable {
  channel: string
  instance: string
  state: string
  /** JSON of the feed's figures. */
  figures: string
  updated_at: Timestamp
}

/** How a feed gets its media; `loop` channels (the demo) have no row. */
/** relay: an upstream HLS playlist passed through; pull: anything ffmpeg reads, packaged by us. */
export type FeedKind = "relay" | "pull" | "ingest"

export interface SettingsTable {
  key: string
  /** JSON text. */
  value: string
}

export interface MaintenanceTable {
  id: number
  maintenance_mode: boolean
  title: string
  first_row_text: string
  second_row_text: string
  updated_at: Timestamp
}

export interface AnnouncementsTable {
  id: Generated<number>
  token: string
  title: string
  text: string
  created_at: Timestamp
}

export interface TicketsTable {
  id: Generated<number>
  user_id: number
  /** the ticket's category; only the contract's closed set is ever written */
  type: TicketCategory
  subject: string
  description: string
  status: Defaulted<TicketStatus>
  created_at: Timestamp
  resolved_at: Timestamp | null
  /** JSON of the domain's PlayerContext, when the viewer attached one from a player's error box. */
  player_context: Defaulted<string | null>
  /** When staff first answered (a reply or a status change). */
  first_response_at: Defaulted<Timestamp | null>
}

export interface InvitationsTable {
  id: Generated<number>
  inviter_id: number
  new_user_id: number
  new_user_email: string
  created_at: Timestamp
  reward_given: Timestamp | null
}

export type PaymentProvider = "paypal" | "btc"

export interface PaymentsTable {
  id: Generated<number>
  /** Null once the paying user is deleted: revenue history outlives accounts. */
  user_id: number | null
  /** The provider's transaction id; unique, so an import seen twice adds nothing. */
  paypal_transaction_id: string | null
  provider: Defaulted<PaymentProvider>
  /** Gross, in `currency`. */
  price: number
  /** What the provider kept of the gross. */
  fee: Defaulted<number>
  currency: Defaulted<string>
  /** When it was paid. */
  created_at: Timestamp
  /** The month of subscription it bought: from the later of its date and the account's paid end, one month on. */
  period_start: Defaulted<Timestamp | null>
  period_end: Defaulted<Timestamp | null>
}

export type RewardReason = "invite" | "redeem" | "adjust"

/** Reward points, one row per change: a balance is the sum of an account's rows. */
export interface RewardLedgerTable {
  id: Generated<number>
  user_id: number
  /** Positive when earned, negative when spent. */
  points: number
  reason: RewardReason
  /** The invitation an `invite` row rewards; unique, so no invitation rewards twice. */
  invitation_id: number | null
  created_at: Timestamp
}

export type MailKind =
  | "verify"
  | "reset"
  | "email-change"
  | "email-change-notice"
  | "sign-in-paused"
  | "sign-in-link"
  | "ticket-reply"
  | "ticket-status"
  | "reminder"
  | "reminder-dropped"
export type MailStatus = "pending" | "sent" | "failed"
export type TokenPurpose = "verify" | "reset" | "email-change"

export interface OutboxTable {
  id: Generated<number>
  to_address: string
  subject: string
  text_body: string
  html_body: string
  kind: MailKind
  status: Defaulted<MailStatus>
  attempts: Defaulted<number>
  /** While a worker holds the mail this is its lease, so another worker leaves it alone. */
  next_attempt_at: Timestamp
  last_error: string | null
  created_at: Timestamp
  sent_at: Timestamp | null
}

export interface OneTimeTokensTable {
  id: Generated<number>
  purpose: TokenPurpose
  /** SHA-256 hex of the raw token; the raw token exists only in the mail that carries it. */
  token_hash: string
  user_id: number
  new_email: string | null
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
  /** the session an email change was asked from (kept when it is confirmed); null otherwise */
  session_id: number | null
}

/** Single-use sign-in links mailed when new networks are paused for an account (migration 0017). */
export interface SignInLinksTable {
  id: Generated<number>
  /** SHA-256 hex of the raw token; the raw token exists only in the mail that carries it. */
  token_hash: string
  user_id: number
  created_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
}

export interface PasswordResetRequestsTable {
  id: Generated<number>
  /** SHA-256 hex of the normalised address asked for; the address itself is not kept. */
  email_hash: string
  /** the client network it came from (IPv4 address, IPv6 /64); null on rows from before networks were kept */
  network: string | null
  created_at: Timestamp
}

export interface Tables {
  users: UsersTable
  sessions: SessionsTable
  streams: StreamsTable
  stream_feeds: StreamFeedsTable
  feed_health: FeedHealthTable
  settings: SettingsTable
  maintenance: MaintenanceTable
  announcements: AnnouncementsTable
  tickets: TicketsTable
  invitations: InvitationsTable
  payments: PaymentsTable
  reward_ledger: RewardLedgerTable
  outbox: OutboxTable
  one_time_tokens: OneTimeTokensTable
  sign_in_links: SignInLinksTable
  password_reset_requests: PasswordResetRequestsTable
  player_connections: PlayerConnectionsTable
  unknown_viewers: UnknownViewersTable
  server_keys: ServerKeysTable
  stream_qoe_samples: StreamQoeSamplesTable
  analytics_events: AnalyticsEventsTable
  health_events: HealthEventsTable
  metering: MeteringTable
  player_permissions: PlayerPermissionsTable
  guide_channels: GuideChannelsTable
  guide_programmes: GuideProgrammesTable
  guide_staging: GuideStagingTable
  job_leases: JobLeasesTable
  rate_limits: RateLimitsTable
  table_versions: TableVersionsTable
  audit_log: AuditLogTable
  reminders: RemindersTable
  calendar_feeds: CalendarFeedsTable
}

export type ReminderState = "pending" | "sent" | "dropped"

/** A viewer's reminder of a guide programme (migration 0018), mailed `lead_minutes` before it starts. */
export interface RemindersTable {
  id: Generated<number>
  user_id: number
  /** the stream the mail's link opens */
  stream_id: number
  /** the guide programme it is for: its channel and start (the guide's key), moved with it by a refresh */
  channel_id: string
  start_at: Timestamp
  stop_at: Timestamp
  /** the programme's title when it was found, so a refresh can find it again where it moved */
  title: string
  lead_minutes: number
  /** start_at less the lead: when the mail goes */
  remind_at: Timestamp
  /** the viewer's IANA zone when they set it: the mail says the start in it */
  time_zone: Defaulted<string>
  /** pending until mailed (sent), or dropped when a refresh took the programme out of the guide */
  state: Defaulted<ReminderState>
  created_at: Timestamp
  /** when the reminder or the drop notice was queued */
  notified_at: Timestamp | null
}

/** One private calendar feed address per account (migration 0018); a new one replaces it. */
export interface CalendarFeedsTable {
  user_id: number
  /** SHA-256 hex of the secret in the address; the secret itself is shown once, when made. */
  token_hash: string
  created_at: Timestamp
}

/** What staff and operators did (migration 0016): one row per action, never updated, pruned by age. */
export interface AuditLogTable {
  id: Generated<number>
  at: Timestamp
  /** a staff member's email, or `cli:` and the operator's OS user */
  actor: string
  /** the staff member's account; null for the operator CLI (and kept when the account goes) */
  actor_user_id: number | null
  /** a code of the domain's AUDIT_ACTIONS */
  action: string
  target: string
  /** what changed, never a secret */
  detail: string
  /** the client's address for a staff request; null for the CLI */
  address: string | null
}

/** One fixed window of a rate-limit or lockout counter (PostgreSQL; SQLite counts in memory). */
export interface RateLimitsTable {
  key: string
  count: number
  /** Epoch ms. */
  closes_at: number
}

/** How many times a table has changed (SQLite, kept by triggers; PostgreSQL announces changes instead). */
export interface TableVersionsTable {
  name: string
  version: number
}

export type UserRow = Selectable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type StreamRow = Selectable<StreamsTable>
export type StreamFeedRow = Selectable<StreamFeedsTable>
export type MaintenanceRow = Selectable<MaintenanceTable>
export type AnnouncementRow = Selectable<AnnouncementsTable>
export type TicketRow = Selectable<TicketsTable>
export type InvitationRow = Selectable<InvitationsTable>
export type PaymentRow = Selectable<PaymentsTable>
export type OutboxRow = Selectable<OutboxTable>
export type OneTimeTokenRow = Selectable<OneTimeTokensTable>

/**
 * One player session: a session's player (`app`) on one stream. Heartbeats and the origin's
 * playlist requests refresh `last_seen`; it ends when the player stops, staff end it or the
 * account's stream limit makes room for another (`ended_reason`).
 */
export interface PlayerConnectionsTable {
  id: Generated<number>
  user_id: number
  session_id: number
  /** The session's player token, a non-secret fingerprint; never the session token. */
  token: string
  stream_id: string
  app: string
  /** the address it was last seen from, and that address's network (IPv4 address, IPv6 /64) */
  ip: string
  network: string
  first_seen: Timestamp
  last_seen: Timestamp
  ended_at: Timestamp | null
  ended_reason: string | null
}

/** An address that asked our origin for a playlist without a valid stream grant. */
export interface UnknownViewersTable {
  ip: string
  channel: string
  first_seen: Timestamp
  last_seen: Timestamp
}

/** One measurement of a stream's quality: a time to first picture, a stall or time spent playing (ms), or an error (1). */
export interface StreamQoeSamplesTable {
  id: Generated<number>
  stream_id: string
  kind: "ttff" | "stall" | "error" | "watch"
  value: number
  at: Timestamp
}

/** Keys every instance shares, made once by the migrations. */
export interface ServerKeysTable {
  name: string
  value: string
}

export interface AnalyticsEventsTable {
  id: Generated<number>
  user_id: number
  event: string
  video_type: string
  sitegroup_id: string
  media_id: string
  session_id: string
  player_id: string
  /** JSON: a number of seconds, or the VOD 100-slice indexes of a ping. */
  position: string
  /** The player's clock, epoch ms. */
  created: number
  received_at: Timestamp
  ip: string
}

export interface HealthEventsTable {
  id: Generated<number>
  /** The account whose live session sent the beacon; null only in rows kept from before beacons needed one. */
  user_id: number | null
  session_id: string
  device_id: string
  version: string
  event: string
  current_time: number
  client_time: number
  adjusted_time: number
  source: string
  page_url: string
  /** JSON: media_id, site_id, sitegroup_id, player_id */
  ids: Defaulted<string>
  /** JSON: array of the player's optional parts at work */
  plugins: Defaulted<string>
  received_at: Timestamp
  ip: string
}

export interface MeteringTable {
  id: Generated<number>
  user_id: number
  token_id: string
  factor: number
  received_at: Timestamp
}

export interface PlayerPermissionsTable {
  user_id: number
  no_metering: Defaulted<boolean>
}

/** Where a guide channel's programmes come from: an XMLTV import, or the demo's generator. */
export type GuideSource = "xmltv" | "demo"

export interface GuideChannelsTable {
  /** The XMLTV channel id (`<channel id>`, `<programme channel>`). */
  id: string
  /** The XMLTV display name; the channel's id when the file names it nowhere. */
  name: string
  source: GuideSource
  updated_at: Timestamp
}

export interface GuideProgrammesTable {
  channel_id: string
  start_at: Timestamp
  stop_at: Timestamp
  title: string
  subtitle: Defaulted<string>
}

/** Programmes of an import in progress, swapped into guide_programmes once the whole file has read well. */
export interface GuideStagingTable {
  /** Starts with the import's ISO start time, so leftovers of a crashed import are found by age. */
  import_id: string
  channel_id: string
  start_at: Timestamp
  stop_at: Timestamp
  title: string
  subtitle: string
}

/** Which instance runs a background job, until when. */
export interface JobLeasesTable {
  name: string
  holder: string
  leased_until: Timestamp
}
