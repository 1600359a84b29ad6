import path from "node:path"
import ipaddr from "ipaddr.js"
import { DEFAULT_SESSION_MAX_DAYS } from "./account/sessions.ts"
import { DEFAULT_RING_CAPS, type RingCaps } from "./feeds/relayRing.ts"
import type { TimeshiftStorage } from "./feeds/timeshiftStore.ts"

export interface Config {
  readonly port: number
  readonly host: string
  /** Absolute. SQLite file, outbox and other server state live here. */
  readonly dataDir: string
  /** A postgres:// URL; undefined means the embedded SQLite database. */
  readonly databaseUrl: string | undefined
  /** Origin the app is reached at, without a trailing slash; used in links and for HSTS. */
  readonly publicUrl: string
  /** Whether PUBLIC_URL was set, or the address is the default made from PORT. */
  readonly publicUrlSource: "PUBLIC_URL" | "default"
  readonly smtpUrl: string | undefined
  readonly mailFrom: string
  /** Absolute. The built SPA (vite's `dist/`). */
  readonly staticDir: string
  /** Absolute. The demo live origin's channels. */
  readonly mediaDir: string
  /**
   * Which `X-Forwarded-For` entries to believe, so rate limits see real clients: false (none), a
   * number of proxies in front (each appends the address it received from), or the proxies'
   * addresses. Never the leftmost entry as such: a client writes that one itself.
   */
  readonly trustProxy: false | number | ReadonlyArray<string>
  /** Open connections one address may hold; unset behind a proxy, whose connections carry everyone's. */
  readonly connectionsPerAddress: number | undefined
  /** Per-IP overrides of the built-in limits, e.g. for an end-to-end suite that signs in often. */
  readonly rateLimits: { readonly signInPerMinute?: number; readonly apiPerMinute?: number }
  /** LOG_FORMAT; undefined lets the server choose by whether its output is a terminal. */
  readonly logFormat: "json" | "pretty" | undefined
  /**
   * Relayed channels: the media kept in memory (RELAY_CACHE_MB, RELAY_CHANNEL_CACHE_MB) and how long a
   * feed outlives its last viewer.
   */
  readonly relay: { readonly caps: RingCaps; readonly lingerMs: number }
  /**
   * Relayed, pulled and ingested channels' time-shift windows: on disk under DATA_DIR/timeshift,
   * at most TIMESHIFT_CHANNEL_MB per channel and TIMESHIFT_TOTAL_MB in all.
   */
  readonly timeshift: TimeshiftStorage
  /** Where the other instances reach this one (to take a relayed channel from the instance that runs its feed). */
  readonly instanceUrl: string
  /**
   * Where encoders push ingest channels: the address the RTMP and SRT ports listen on (INGEST_HOST,
   * HOST by default), the ports (RTMP_PORT, SRT_PORT; null when turned off) and the host name the
   * push addresses given to operators carry (INGEST_PUBLIC_HOST, PUBLIC_URL's by default).
   */
  /** Where backups go without --file (BACKUP_DIR, DATA_DIR/backups), and how many the daily one keeps (BACKUP_KEEP). */
  readonly backup: { readonly dir: string; readonly keep: number }
  /** The bearer token `/metrics` asks for (METRICS_TOKEN); without one there is no `/metrics`. */
  readonly metricsToken: string | undefined
  /** However often it is used, a session ends this many days after its sign-in (SESSION_MAX_DAYS). */
  readonly sessionMaxDays: number
  readonly ingest: {
    readonly host: string
    readonly rtmpPort: number | null
    readonly srtPort: number | null
    readonly publicHost: string
  }
}

export type Env = Readonly<Record<string, string | undefined>>

/** Every problem with the environment at once, so an operator fixes them in one go. */
export class ConfigError extends Error {
  readonly problems: ReadonlyArray<string>
  constructor(problems: ReadonlyArray<string>) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`)
    this.name = "ConfigError"
    this.problems = problems
  }
}

// Relative to the repository, not the working directory, so `node src/server/main.ts` finds the
// build and the demo media wherever it is started from.
const projectRoot = path.resolve(import.meta.dirname, "../..")

const value = (env: Env, key: string): string | undefined => {
  const raw = env[key]?.trim()
  return raw === undefined || raw === "" ? undefined : raw
}

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const problems: string[] = []
  const fail = (message: string): undefined => {
    problems.push(message)
    return undefined
  }

  const portText = value(env, "PORT")
  const port =
    portText === undefined
      ? 8080
      : /^\d{1,5}$/.test(portText) && Number(portText) <= 65535
        ? Number(portText)
        : fail(`PORT must be a whole number from 0 to 65535 (got "${portText}")`)

  const host = value(env, "HOST") ?? "127.0.0.1"
  if (/\s|\//.test(host)) fail(`HOST must be a host name or IP address (got "${host}")`)

  const databaseUrl = value(env, "DATABASE_URL")
  if (databaseUrl !== undefined && !hasProtocol(databaseUrl, ["postgres:", "postgresql:"])) {
    fail("DATABASE_URL must be a postgres:// or postgresql:// URL (leave it unset to use SQLite)")
  }

  const publicText = value(env, "PUBLIC_URL") ?? `http://localhost:${port ?? 8080}`
  const publicUrl = hasProtocol(publicText, ["http:", "https:"])
    ? publicText.replace(/\/+$/, "")
    : fail(`PUBLIC_URL must be an http:// or https:// URL (got "${publicText}")`)

  const smtpUrl = value(env, "SMTP_URL")
  if (smtpUrl !== undefined && !hasProtocol(smtpUrl, ["smtp:", "smtps:"])) {
    fail("SMTP_URL must be an smtp:// or smtps:// URL (leave it unset to write mail to DATA_DIR/outbox)")
  }

  const mailFrom = value(env, "MAIL_FROM") ?? `StreamHub <no-reply@${mailDomain(publicUrl)}>`
  if (!/@[^\s@>]+/.test(mailFrom)) fail(`MAIL_FROM must contain an email address (got "${mailFrom}")`)

  const trustProxy = parseTrustProxy(value(env, "TRUST_PROXY"), fail)

  const perMinute = (key: string): number | undefined => {
    const text = value(env, key)
    if (text === undefined) return undefined
    return /^[1-9]\d{0,6}$/.test(text) ? Number(text) : fail(`${key} must be a whole number from 1 to 9999999 (got "${text}")`)
  }
  const signInPerMinute = perMinute("SIGN_IN_LIMIT_PER_MINUTE")
  const apiPerMinute = perMinute("API_LIMIT_PER_MINUTE")

  const logFormatText = value(env, "LOG_FORMAT")?.toLowerCase()
  const logFormat =
    logFormatText === undefined || logFormatText === "json" || logFormatText === "pretty"
      ? logFormatText
      : fail(
          `LOG_FORMAT must be json or pretty, or unset to choose by whether the output is a terminal (got "${value(env, "LOG_FORMAT")}")`
        )

  const wholeNumber = (key: string, min: number, max: number): number | undefined => {
    const text = value(env, key)
    if (text === undefined) return undefined
    return /^\d{1,9}$/.test(text) && Number(text) >= min && Number(text) <= max
      ? Number(text)
      : fail(`${key} must be a whole number from ${min} to ${max} (got "${text}")`)
  }
  const MB = 1024 * 1024
  const totalMb = wholeNumber("RELAY_CACHE_MB", 8, 65536)
  const channelMb = wholeNumber("RELAY_CHANNEL_CACHE_MB", 4, 65536)
  const lingerSeconds = wholeNumber("RELAY_LINGER_SECONDS", 0, 86400)
  const relayCaps: RingCaps = {
    total: totalMb === undefined ? DEFAULT_RING_CAPS.total : totalMb * MB,
    perChannel: channelMb === undefined ? Math.min(DEFAULT_RING_CAPS.perChannel, (totalMb ?? Infinity) * MB) : channelMb * MB
  }
  if (relayCaps.perChannel > relayCaps.total) fail("RELAY_CHANNEL_CACHE_MB must not be larger than RELAY_CACHE_MB")
  // megabytes, a fraction allowed (a small test of the caps)
  const megabytes = (key: string, fallback: number): number | undefined => {
    const text = value(env, key)
    if (text === undefined) return fallback * MB
    return /^\d{1,8}(\.\d{1,3})?$/.test(text) && Number(text) > 0
      ? Math.round(Number(text) * MB)
      : fail(`${key} must be a number of megabytes above 0 (got "${text}")`)
  }
  const timeshiftChannel = megabytes("TIMESHIFT_CHANNEL_MB", 6144)
  const timeshiftTotal = megabytes("TIMESHIFT_TOTAL_MB", 24576)
  if (timeshiftChannel !== undefined && timeshiftTotal !== undefined && timeshiftChannel > timeshiftTotal)
    fail("TIMESHIFT_CHANNEL_MB must not be larger than TIMESHIFT_TOTAL_MB")

  const instanceText = value(env, "INSTANCE_URL")
  // a wildcard address is where we listen, not where anybody reaches us: this machine's loopback is
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host
  const instanceUrl =
    instanceText === undefined
      ? `http://${reachable}:${port ?? 8080}`
      : hasProtocol(instanceText, ["http:", "https:"])
        ? instanceText.replace(/\/+$/, "")
        : fail(`INSTANCE_URL must be an http:// or https:// address (got "${instanceText}")`)

  const ingestHost = value(env, "INGEST_HOST") ?? host
  if (/\s|\//.test(ingestHost)) fail(`INGEST_HOST must be a host name or IP address (got "${ingestHost}")`)
  const ingestPort = (key: string, fallback: number): number | null | undefined => {
    const text = value(env, key)
    if (text === undefined) return fallback
    if (text.toLowerCase() === "off") return null
    return /^\d{1,5}$/.test(text) && Number(text) <= 65535
      ? Number(text)
      : fail(`${key} must be a port from 0 to 65535, or off (got "${text}")`)
  }
  const sessionMaxDays = wholeNumber("SESSION_MAX_DAYS", 1, 3650) ?? DEFAULT_SESSION_MAX_DAYS
  const backupKeep = wholeNumber("BACKUP_KEEP", 0, 3650) ?? 7
  const metricsToken = value(env, "METRICS_TOKEN")
  if (metricsToken !== undefined && metricsToken.length < 16) fail("METRICS_TOKEN must be at least 16 characters (a long random string)")
  const rtmpPort = ingestPort("RTMP_PORT", 1935)
  const srtPort = ingestPort("SRT_PORT", 9000)
  const ingestPublicHost = value(env, "INGEST_PUBLIC_HOST") ?? (publicUrl === undefined ? "localhost" : new URL(publicUrl).hostname)
  if (/[\s/?#@]/.test(ingestPublicHost)) fail(`INGEST_PUBLIC_HOST must be a host name or IP address (got "${ingestPublicHost}")`)

  if (
    problems.length > 0 ||
    port === undefined ||
    publicUrl === undefined ||
    instanceUrl === undefined ||
    rtmpPort === undefined ||
    srtPort === undefined ||
    timeshiftChannel === undefined ||
    timeshiftTotal === undefined
  )
    throw new ConfigError(problems)
  const dataDir = path.resolve(cwd, value(env, "DATA_DIR") ?? "data")
  const timeshift: TimeshiftStorage = { dir: path.join(dataDir, "timeshift"), perChannel: timeshiftChannel, total: timeshiftTotal }
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    publicUrl,
    publicUrlSource: value(env, "PUBLIC_URL") === undefined ? "default" : "PUBLIC_URL",
    smtpUrl,
    mailFrom,
    staticDir: path.resolve(cwd, value(env, "STATIC_DIR") ?? path.join(projectRoot, "dist")),
    mediaDir: path.resolve(cwd, value(env, "MEDIA_DIR") ?? path.join(projectRoot, "media")),
    trustProxy,
    connectionsPerAddress: trustProxy === false ? 256 : undefined,
    rateLimits: {
      ...(signInPerMinute === undefined ? {} : { signInPerMinute }),
      ...(apiPerMinute === undefined ? {} : { apiPerMinute })
    },
    logFormat,
    relay: { caps: relayCaps, lingerMs: (lingerSeconds ?? 60) * 1000 },
    timeshift,
    instanceUrl,
    sessionMaxDays,
    metricsToken,
    backup: {
      dir: path.resolve(cwd, value(env, "BACKUP_DIR") ?? path.join(value(env, "DATA_DIR") ?? "data", "backups")),
      keep: backupKeep
    },
    ingest: { host: ingestHost, rtmpPort, srtPort, publicHost: ingestPublicHost }
  }
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"])

/**
 * TRUST_PROXY: false/0/no, true/yes (one proxy), a number of proxies (1–10), or the proxies'
 * addresses: a comma-separated list of IP addresses, CIDR ranges, or loopback/linklocal/uniquelocal.
 */
function parseTrustProxy(text: string | undefined, fail: (message: string) => undefined): Config["trustProxy"] {
  if (text === undefined) return false
  const lower = text.toLowerCase()
  if (["0", "false", "no"].includes(lower)) return false
  if (["true", "yes"].includes(lower)) return 1
  if (/^([1-9]|10)$/.test(lower)) return Number(lower)
  const entries = lower
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  const readable = (entry: string) =>
    PROXY_NAMES.has(entry) || ipaddr.IPv4.isValidFourPartDecimal(entry) || ipaddr.IPv6.isValid(entry) || isCidr(entry)
  if (entries.length > 0 && entries.every(readable)) return entries
  fail(`TRUST_PROXY must be false, true (one proxy), the number of proxies in front (1 to 10), or their addresses (got "${text}")`)
  return false
}

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text)
    return true
  } catch {
    return false
  }
}

function hasProtocol(text: string, protocols: ReadonlyArray<string>): boolean {
  try {
    const url = new URL(text)
    return protocols.includes(url.protocol) && url.hostname !== ""
  } catch {
    return false
  }
}

function mailDomain(publicUrl: string | undefined): string {
  const host = publicUrl === undefined ? "localhost" : new URL(publicUrl).hostname
  return host === "localhost" || /^[\d.]+$/.test(host) ? "streamhub.local" : host
}
